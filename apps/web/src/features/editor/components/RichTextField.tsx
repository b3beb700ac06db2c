import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useId, useRef } from 'react';

interface RichTextFieldProps {
  label: string;
  description?: string;
  /** HTML; '' for an empty document. */
  value: string;
  onChange: (html: string) => void;
  error?: string;
}

/**
 * Rich text with SPEC §2's toolbar: headings 1-2, bold, italic, underline, ordered and bullet lists,
 * clear formatting (undo and redo by keyboard). StarterKit 3 brings underline, link and history;
 * links do not open on click while editing. The server sanitises the HTML on save.
 */
export function RichTextField({ label, description, value, onChange, error }: RichTextFieldProps) {
  const labelId = useId();
  // The editor owns its document once created: `value` only seeds it, changes flow out by onChange.
  const initialValue = useRef(value).current;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } })],
    content: initialValue,
    editorProps: {
      attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-labelledby': labelId },
    },
    onUpdate: ({ editor: current }) => onChangeRef.current(current.isEmpty ? '' : current.getHTML()),
  });

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
            <RichTextEditor.ClearFormatting />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={140} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
