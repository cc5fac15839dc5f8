// The light face of prompt/: what `baton sessions` reads to mark `baton run`'s supervised tries,
// without the prompt builders. index.ts re-exports it all; refresh/light.ts says why a module has a
// second face.
export { isSupervisedTry, supervisedLink } from './supervised-try.js';
export type { SupervisedLink } from './supervised-try.js';
