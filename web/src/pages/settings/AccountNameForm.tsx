// The account's name: owners and admins rename it; members see it.
import { useState, type FormEvent } from 'react';
import { Field } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useRenameAccount } from '../../data/settings';

export function AccountNameForm({ name, editable }: { name: string; editable: boolean }) {
  const [value, setValue] = useState(name);
  const save = useRenameAccount();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(value);
  };
  return (
    <form className="settings-form" onSubmit={submit}>
      <Field label="Account name" value={value} onChange={(e) => setValue(e.target.value)} readOnly={!editable} required maxLength={200} />
      {editable && (
        <div className="field">
          <button type="submit" disabled={save.isPending || value.trim() === name}>
            {save.isPending ? 'Saving…' : 'Save name'}
          </button>
        </div>
      )}
      {save.isSuccess && value.trim() === name && <p className="notice notice-ok" role="status">Saved.</p>}
      <ErrorNotice error={save.error} />
    </form>
  );
}
