/**
 * Whether some page still shows an upload: in one of its image fields (under any of the upload's URLs),
 * or in the rich text of its owner's pages. A port between two services: the pages service answers it (it
 * owns the pages), the uploads queue asks it before removing a file, and neither knows the other; the
 * process that runs the uploads queue wires the pages service's answer in (see UploadsWorkerModule.forUsage).
 */
export abstract class UploadUsage {
  abstract usesUpload(urls: string[], ownerId: number, key: string): Promise<boolean>;
}
