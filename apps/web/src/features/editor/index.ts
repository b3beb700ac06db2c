// Loaded lazily by the router: the rich-text editor (tiptap) and the page renderer live in this chunk.
export { EditorPage } from './components/EditorPage';
