import { CmsUpload } from '@fanfare/protocol';
import { ApiError } from '../api/cms.ts';

/**
 * Sends one file with XMLHttpRequest, the one browser API that reports upload progress
 * (fetch does not). `onProgress` gets 0..1. Resolves with the stored upload.
 */
export function uploadWithProgress(opts: {
  url: string;
  token: string | null;
  body: FormData | string;
  contentType?: string;
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', opts.url);
    if (opts.token) xhr.setRequestHeader('authorization', `Bearer ${opts.token}`);
    if (opts.contentType) xhr.setRequestHeader('content-type', opts.contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // keep the text
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress(1);
        resolve(body);
      } else reject(new ApiError(xhr.status, body as ApiError['body'], opts.url, { statusText: xhr.statusText }));
    };
    xhr.onerror = () => reject(new ApiError(0, null, opts.url, { kind: 'network', message: 'Network Error' }));
    xhr.onabort = () => reject(new ApiError(0, null, opts.url, { kind: 'aborted', message: 'Request aborted' }));
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(opts.body);
  });
}

export async function uploadImage(url: string, token: string | null, file: File, folder: string, onProgress: (f: number) => void) {
  const form = new FormData();
  form.set('folder', folder);
  form.set('file', file);
  return CmsUpload.parse(await uploadWithProgress({ url, token, body: form, onProgress }));
}
