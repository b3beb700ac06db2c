import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import Image from '@tiptap/extension-image';
import { type Editor, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useId, useRef } from 'react';
import { IconPhoto } from '../../../components/icons';
import { toast } from '../../../lib/toast';
import { INLINE_IMAGE_TYPES, checkInlineImage, readAsDataUrl } from '../model/image-files';
import { cleanPastedHtml, isAllowedLink } from '../model/rich-text-paste';

interface RichTextFieldProps {
  label: string;
  description?: string;
  /** HTML; '' for an empty document. */
  value: string;
  onChange: (html: string) => void;
  error?: string;
}

/** Undo history: steps typed within 1000 ms merge into one, and 100 steps are kept. */
export const RICH_TEXT_HISTORY = { depth: 100, newGroupDelay: 1000 } as const;

/** Embeds image files inline as data (png, gif, jpeg, bmp, x-icon; each ≤ 2 MB), or says why not. */
async function insertImageFiles(editor: Editor, files: File[]): Promise<void> {
  for (const file of files) {
    const problem = checkInlineImage(file);
    if (problem) {
      toast({ title: problem.title, description: problem.description, variant: 'destructive' });
      continue;
    }
    const src = await readAsDataUrl(file);
    editor.chain().focus().setImage({ src, alt: '' }).run();
  }
}

const imageFilesOf = (list: FileList | null | undefined) => [...(list ?? [])].filter((file) => file.type.startsWith('image/'));

/**
 * Rich text with its toolbar: headings 1-2, bold, italic, underline, ordered and bullet lists,
 * clear formatting, plus links (http, https, mailto, tel only), inline images from a local file, undo
 * and redo. Pasted HTML is cleaned to the server's allowlist; the server sanitises again on save.
 */
export function RichTextField({ label, description, value, onChange, error }: RichTextFieldProps) {
  const labelId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  // The editor owns its document once created: `value` only seeds it, changes flow out by onChange.
  const initialValue = useRef(value).current;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        undoRedo: RICH_TEXT_HISTORY,
        link: {
          openOnClick: false,
          protocols: ['mailto', 'tel'],
          isAllowedUri: (url) => isAllowedLink(url),
          shouldAutoLink: (url) => isAllowedLink(url) || isAllowedLink(`https://${url}`),
        },
      }),
      Image.configure({ inline: false, allowBase64: true }),
    ],
    content: initialValue,
    editorProps: {
      attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-labelledby': labelId },
      transformPastedHTML: cleanPastedHtml,
      handlePaste: (_view, event) => {
        const files = imageFilesOf(event.clipboardData?.files);
        if (files.length === 0 || !editorRef.current) return false;
        void insertImageFiles(editorRef.current, files);
        return true;
      },
      handleDrop: (_view, event) => {
        const files = imageFilesOf((event as DragEvent).dataTransfer?.files);
        if (files.length === 0 || !editorRef.current) return false;
        event.preventDefault();
        void insertImageFiles(editorRef.current, files);
        return true;
      },
    },
    onUpdate: ({ editor: current }) => onChangeRef.current(current.isEmpty ? '' : current.getHTML()),
  });
  const editorRef = useRef(editor);
  editorRef.current = editor;

  return (
    <Input.Wrapper label={label} labelProps={{ id: labelId }} description={description} error={error}>
      <RichTextEditor editor={editor} mt={4}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H1 />
            <RichTextEditor.H2 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.OrderedList />
            <RichTextEditor.BulletList />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
            <RichTextEditor.Control
              onClick={() => fileInput.current?.click()}
              aria-label="Insert image"
              title="Insert image"
            >
              <IconPhoto size={16} />
            </RichTextEditor.Control>
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.ClearFormatting />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={140} />
      </RichTextEditor>
      <input
        ref={fileInput}
        type="file"
        accept={INLINE_IMAGE_TYPES.join(',')}
        hidden
        data-testid="rich-text-image-input"
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = '';
          if (editor) void insertImageFiles(editor, files);
        }}
      />
    </Input.Wrapper>
  );
}
