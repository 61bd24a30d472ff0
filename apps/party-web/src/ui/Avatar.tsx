import { stickerGlyph } from './stickers.ts';

/** A user's picture, sticker or initial. Decorative: the name is always shown beside it. */
export function Avatar(props: { name: string; picture?: string | null; sticker?: string | null; size?: number }) {
  const size = props.size ?? 36;
  const style = { width: size, height: size, fontSize: size * 0.5 };
  if (props.picture) return <img className="avatar" src={props.picture} alt="" style={style} />;
  return (
    <span className="avatar avatar--glyph" style={style} aria-hidden="true">
      {props.sticker ? stickerGlyph(props.sticker) : (props.name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
