import { useMutation } from '@tanstack/react-query';
import { UploadMessages, type UploadImageType } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { uploadImage } from '../api/uploads.api';
import { checkUploadFile } from '../model/image-files';

/**
 * Uploads one image for a field (at most 2 MB): the file is checked first ('File too large', 'Invalid file
 * type'), then sent; 'Image uploaded' or 'Upload failed' with the server's message. `onUploaded`
 * receives the stored image's URL.
 */
export function useUploadImage(type: UploadImageType, onUploaded: (imageUrl: string) => void) {
  const mutation = useMutation({
    mutationFn: (file: File) => uploadImage(file, type),
    onSuccess: ({ imageUrl }) => {
      onUploaded(imageUrl);
      toast({ title: UploadMessages.uploadedTitle, description: 'Your image was uploaded and compressed.', variant: 'success' });
    },
    onError: (error) =>
      toast({ title: UploadMessages.failedTitle, description: errorText(error, UploadMessages.failed), variant: 'destructive' }),
  });

  const upload = (file: File | null) => {
    if (!file) return;
    const problem = checkUploadFile(file);
    if (problem) {
      toast({ title: problem.title, description: problem.description, variant: 'destructive' });
      return;
    }
    mutation.mutate(file);
  };

  return { upload, isUploading: mutation.isPending };
}
