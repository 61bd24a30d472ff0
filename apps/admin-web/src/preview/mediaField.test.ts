import { describe, expect, it } from 'vitest';
import { mediaFieldTarget } from './mediaField.ts';

describe('a media pick from the preview lands in the draft', () => {
  it('names the module and image field of `data.page.modules.{i}.{field}`', () => {
    expect(mediaFieldTarget('data.page.modules.0.cover_image', 2)).toEqual({ index: 0, key: 'cover_image' });
    expect(mediaFieldTarget('data.page.modules.1.image', 2)).toEqual({ index: 1, key: 'image' });
  });

  it('refuses a module that does not exist, a field that is not an image, and any other path', () => {
    expect(mediaFieldTarget('data.page.modules.2.image', 2)).toBeNull();
    expect(mediaFieldTarget('data.page.modules.0.title', 2)).toBeNull();
    expect(mediaFieldTarget('slug', 2)).toBeNull();
    expect(mediaFieldTarget('data.page.modules.0.__proto__', 2)).toBeNull();
  });
});
