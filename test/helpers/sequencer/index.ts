export { longestFirst, LongestFirstSequencer, readDurations } from './longest-first.js';
