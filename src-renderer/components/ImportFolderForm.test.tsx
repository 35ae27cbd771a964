// @vitest-environment jsdom
// The shared "Import a checkpoint folder" form: its field is named by the given label, Check… stays
// disabled while the field is blank, and Check hands over the text as typed.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { ImportFolderForm } from './ImportFolderForm';

function Host({ checked }: { checked: string[] }) {
  const [folder, setFolder] = useState('');
  return <ImportFolderForm label="Folder" placeholder="/path/to/ckpt" value={folder} onChange={setFolder} onCheck={(f) => checked.push(f)} testIds={{ path: 'the-path', check: 'the-check' }} />;
}

describe('ImportFolderForm', () => {
  afterEach(cleanup);

  it('checks the folder as typed, and only once the field holds more than spaces', () => {
    const checked: string[] = [];
    render(<Host checked={checked} />);
    const check = screen.getByTestId('the-check') as HTMLButtonElement;
    expect(screen.getByRole('form', { name: 'Import a checkpoint folder' })).toBeTruthy();
    expect(screen.getByLabelText('Folder')).toBe(screen.getByTestId('the-path'));
    expect(check.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Folder'), { target: { value: '   ' } });
    fireEvent.submit(check.closest('form')!);
    expect([check.disabled, checked]).toEqual([true, []]);
    fireEvent.change(screen.getByLabelText('Folder'), { target: { value: ' /data/ckpt ' } });
    expect(check.disabled).toBe(false);
    fireEvent.click(check);
    expect(checked).toEqual([' /data/ckpt ']);
  });
});
