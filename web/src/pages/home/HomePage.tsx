// The hub's home: the getting-started checklist until the account has made its first things (or
// the person hid it), then the places a day starts from.
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { Checklist } from './Checklist';
import './home.css';

const PLACES: ReadonlyArray<readonly [string, string, string]> = [
  ['/runs', 'Runs', 'Every workflow run, and the ones waiting for your approval.'],
  ['/workflows', 'Workflows', 'AI steps that write, summarise and save pages.'],
  ['/automations', 'Automations', 'Emails and texts that follow your contacts.'],
  ['/contacts', 'Contacts', 'The people your automations reach.'],
];

export default function HomePage() {
  return (
    <section aria-labelledby="home-title">
      <PageHeader id="home-title" title="Home" />
      <Checklist />
      <h2>Go to</h2>
      <ul className="home-places">
        {PLACES.map(([to, name, what]) => (
          <li key={to} className="card">
            <Link to={to}>{name}</Link>
            <p className="hint">{what}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
