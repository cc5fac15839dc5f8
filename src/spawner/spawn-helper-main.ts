// Entry of the spawn helper process (spawn-helper.ts): runs the commands its parent sends and
// sends back their output. It is small, so forking it for each command is cheap.
import { type CollectRequest, collectOutput } from './collect-output.js';
import { signalGroup, type SuperviseRequest, superviseProcess } from './supervise-process.js';

type Message = { id: number } & ({ request: CollectRequest } | { supervise: SuperviseRequest } | { abort: true });

/** Supervised processes running, by the id their parent gave them. */
const running = new Map<number, { stop: AbortController; pid?: number }>();

// The parent is gone (it exited, or was killed) or stops the helper: nobody waits for these
// processes any more.
const end = () => {
  for (const { pid } of running.values()) if (pid !== undefined) signalGroup(pid, 'SIGTERM');
  process.exit(0);
};
process.on('disconnect', end);
process.on('SIGTERM', end);
process.on('message', (message: Message) => {
  const { id } = message;
  if ('request' in message) {
    collectOutput(message.request, (result) => process.send?.({ id, result }));
  } else if ('supervise' in message) {
    const entry: { stop: AbortController; pid?: number } = { stop: new AbortController() };
    running.set(id, entry);
    const onSpawn = (pid: number) => {
      entry.pid = pid;
      process.send?.({ id, spawned: pid });
    };
    void superviseProcess(message.supervise, { onSpawn, signal: entry.stop.signal }).then((result) => {
      running.delete(id);
      process.send?.({ id, result });
    });
  } else {
    running.get(id)?.stop.abort();
  }
});
