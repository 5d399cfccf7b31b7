// /profile ("Your profile", from the top bar's name): one's own name, email and password in this
// account. Each part is its own small form that says what happened under it.
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { profileQuery } from '../../data/profile';
import { EmailForm } from './EmailForm';
import { NameForm, PasswordForm } from './ProfileForms';
import './profile.css';

export default function ProfilePage() {
  const q = useQuery(profileQuery());
  return (
    <>
      <PageHeader title="Your profile" />
      <QueryState q={q}>
        {(p) => (
          <div className="profile-sections">
            <p className="muted">
              You are {p.role === 'member' ? 'a member' : `an ${p.role}`} of {p.account_name}. What you change here is for this account only.
            </p>
            <NameForm name={p.name} />
            <EmailForm profile={p} />
            <PasswordForm email={p.email} />
          </div>
        )}
      </QueryState>
    </>
  );
}
