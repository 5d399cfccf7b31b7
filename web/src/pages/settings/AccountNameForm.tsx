// The account's name: owners and admins rename it; members see it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import { SESSION_KEY } from '../../lib/session';
import { SETTINGS_KEY, type Settings } from './types';

export function AccountNameForm({ name, editable }: { name: string; editable: boolean }) {
  const client = useQueryClient();
  const [value, setValue] = useState(name);
  const save = useMutation({
    mutationFn: () => api.patch<Settings>('/hub/api/settings', { name: value }),
    onSuccess: async (s) => {
      client.setQueryData(SETTINGS_KEY, s);
      // The top bar shows the account's name from the session.
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
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
