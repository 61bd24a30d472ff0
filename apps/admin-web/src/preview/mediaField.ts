/** The image fields of page modules: the fields a media pick may set. */
export const IMAGE_FIELDS: ReadonlySet<string> = new Set(['cover_image', 'image']);

/**
 * Where a media pick lands in the draft: the module and field named by the page's `fieldId`
 * (`data.page.modules.{index}.{field}`). Null for anything else: the page may only ask for an
 * image field of a module that exists, never steer the editor into another part of the draft.
 */
export function mediaFieldTarget(fieldId: string, moduleCount: number): { index: number; key: string } | null {
  const m = /^data\.page\.modules\.(\d{1,4})\.([a-z_]+)$/.exec(fieldId);
  if (!m) return null;
  const index = Number(m[1]);
  const key = m[2]!;
  if (index >= moduleCount || !IMAGE_FIELDS.has(key)) return null;
  return { index, key };
}
