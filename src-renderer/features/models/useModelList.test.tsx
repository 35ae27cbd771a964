// @vitest-environment jsdom
// The model list hook of the Models page and the first-run screen: lists the models on mount and
// puts pull progress in the store while mounted, and no longer once unmounted.
import { describe, expect, it } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { useStudioStore } from '../../store/store';
import type { ModelEntry, PullProgress } from '../../../src-shared/contract/models';
import { installScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import { useModelList } from './useModelList';

const MODEL = { id: 'local--ckpt', displayName: 'ckpt', kind: 'installed', status: 'downloading' } as ModelEntry;
const progress = (numBytesDone: number): PullProgress => ({ modelId: MODEL.id, phase: 'download', numBytesDone, numBytesTotal: 100, message: '' });

function Host() {
  useModelList();
  return null;
}

describe('useModelList', () => {
  resetBetweenTests();

  it('lists the models on mount and follows pull progress until unmounted', async () => {
    const bridge = installScriptedBridge({ 'studio:models.list': [MODEL] });
    const { unmount } = render(<Host />);
    await waitFor(() => expect(useStudioStore.getState().models).toEqual([MODEL]));
    bridge.emit('studio:models.onDidProgressPull', progress(40));
    expect(useStudioStore.getState().pulls[MODEL.id]?.numBytesDone).toBe(40);
    unmount();
    bridge.emit('studio:models.onDidProgressPull', progress(90));
    expect(useStudioStore.getState().pulls[MODEL.id]?.numBytesDone).toBe(40);
  });
});
