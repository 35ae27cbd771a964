/**
 * The "Import a checkpoint folder" form of the Models page and the first-run screen: one labelled
 * path field and a Check… button that stays disabled until the field holds more than spaces.
 * Store-agnostic: the caller owns the text (so it survives a fold) and decides what Check does.
 */

export interface ImportFolderFormProps {
  /** The field's visible label. */
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  /** Called with the field's text as typed (untrimmed) when it is not blank. */
  onCheck(folder: string): void;
  testIds: { path: string; check: string };
}

export function ImportFolderForm({ label, placeholder, value, onChange, onCheck, testIds }: ImportFolderFormProps) {
  const blank = !value.trim();
  return (
    <form
      className="toolbar"
      aria-label="Import a checkpoint folder"
      onSubmit={(e) => {
        e.preventDefault();
        if (!blank) onCheck(value);
      }}
    >
      <label className="inline grow">
        {label}
        <input className="grow" value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} data-testid={testIds.path} />
      </label>
      <button type="submit" disabled={blank} data-testid={testIds.check}>
        Check…
      </button>
    </form>
  );
}
