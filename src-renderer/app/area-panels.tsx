/**
 * Which panel each main area shows. Features register their top-level panel here.
 */
import type { ComponentType } from 'react';
import type { Area } from './shell.slice';
import { SettingsPanel } from '../features/settings/SettingsPanel';

function Placeholder({ title }: { title: string }) {
  return (
    <section>
      <h2>{title}</h2>
      <p>This area is not built yet.</p>
    </section>
  );
}

export const AREA_PANELS: Record<Area, ComponentType> = {
  voice: () => <Placeholder title="Voice" />,
  timeline: () => <Placeholder title="Timeline" />,
  library: () => <Placeholder title="Library" />,
  bench: () => <Placeholder title="Benchmark" />,
  models: () => <Placeholder title="Models" />,
  settings: SettingsPanel,
};
