import { ApiError } from '@web/lib/api-client';

export interface UploadProgress {
  /** bytes sent so far */
  loaded: number;
  /** bytes of the whole request body (0 while unknown) */
  total: number;
}

/**
 * POSTs a multipart form with XMLHttpRequest, because fetch reports no upload progress; the
 * answer and errors are those of the app's api client (an ApiError `${status}: ${body}`).
 */
export function postFormWithProgress<T>(
  url: string,
  form: FormData,
  onProgress: (progress: UploadProgress) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch (err) {
          reject(err);
        }
        return;
      }
      reject(new ApiError(xhr.status, xhr.statusText, xhr.responseText));
    };
    xhr.onerror = () => reject(new Error('The upload failed: the server could not be reached'));
    xhr.onabort = () => reject(new Error('The upload was cancelled'));
    xhr.send(form);
  });
}
