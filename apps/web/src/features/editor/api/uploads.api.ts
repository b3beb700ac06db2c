import { UPLOAD_IMAGE_FIELD, type UploadImageResponse, type UploadImageType } from '@plink/contracts';
import { apiUpload } from '../../../lib/api-client';

/** POST /api/upload-image?type=…: the stored, re-encoded image's URL. */
export function uploadImage(file: File, type: UploadImageType): Promise<UploadImageResponse> {
  const form = new FormData();
  form.append(UPLOAD_IMAGE_FIELD, file, file.name);
  return apiUpload<UploadImageResponse>(`/api/upload-image?type=${encodeURIComponent(type)}`, form);
}
