import { compilePrompts, compileResources, serveStdio } from 'toolwright';
import { Note, NoteIndex, SummariseNotePrompt } from './notes.js';

await serveStdio({ name: 'notes', version: '1.0.0' }, [], {
  resources: compileResources([NoteIndex, Note]),
  prompts: compilePrompts([SummariseNotePrompt]),
});
