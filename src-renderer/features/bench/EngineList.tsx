/**
 * The engine hosts behind the studio when it runs several (one per device, `--devices`): state,
 * load and completed requests of each, from the engine status. Renders nothing with one engine.
 */
import { useStudioStore } from '../../store/store';

export function EngineList() {
  const engines = useStudioStore((s) => s.engineStatus?.engines);
  if (!engines || engines.length < 2) return null;
  return (
    <table className="engine-list" data-testid="engine-list" aria-label="Engines">
      <thead>
        <tr><th>Engine</th><th>State</th><th>In flight</th><th>Running</th><th>Waiting</th><th>Completed</th><th>Restarts</th></tr>
      </thead>
      <tbody>
        {engines.map((e) => (
          <tr key={e.index}>
            <td>{e.label}{e.pid ? ` (pid ${e.pid})` : ''}</td>
            <td>{e.hostState}</td>
            <td>{e.numInFlight}</td>
            <td>{e.numRunning}</td>
            <td>{e.numWaiting}</td>
            <td>{e.numCompleted}</td>
            <td>{e.numRestarts}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
