/**
 * The model list for a screen that shows it (the Models page, the first-run screen): lists the
 * models when the screen mounts and follows pull progress into the store while it stays mounted.
 */
import { useEffect } from 'react';
import { EVENTS } from '../../../src-shared/ipc-contract';
import { subscribe } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import { refreshModels } from './models-actions';

export function useModelList(): void {
  const setPull = useStudioStore((s) => s.setPull);
  useEffect(() => {
    void refreshModels();
    return subscribe(EVENTS.onDidProgressPull, setPull);
  }, [setPull]);
}
