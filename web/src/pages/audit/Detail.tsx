// An entry's detail as short "key: value" lines ({from, to} pairs as "from → to").
function show(v: unknown): string {
  if (v && typeof v === 'object' && 'from' in v && 'to' in v) {
    return `${show(v.from)} → ${show(v.to)}`;
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function Detail({ detail }: { detail: Record<string, unknown> }) {
  const entries = Object.entries(detail);
  if (!entries.length) return <span className="muted">—</span>;
  return (
    <>
      {entries.map(([k, v]) => (
        <div key={k}>
          {k.replace(/_/g, ' ')}: {show(v)}
        </div>
      ))}
    </>
  );
}
