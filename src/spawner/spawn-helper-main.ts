// Entry of the spawn helper process (spawn-helper.ts): runs the commands its parent sends and
// sends back their output. It is small, so forking it for each command is cheap.
import { type CollectRequest, collectOutput } from './collect-output.js';

process.on('disconnect', () => process.exit(0));
process.on('message', (message: { id: number; request: CollectRequest }) => {
  collectOutput(message.request, (result) => process.send?.({ id: message.id, result }));
});
