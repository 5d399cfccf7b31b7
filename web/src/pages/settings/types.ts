// The shapes of /hub/api/settings (src/hub/settings/routes.ts).
export interface ProjectSettings {
  id: string;
  name: string;
  sms_consent_required: boolean;
  max_automations_per_contact: number;
}

export interface Settings {
  account: {
    id: string;
    name: string;
    tier: string;
    state: string;
    subscription: string;
    credit_micros: number;
    api_open: boolean;
    limits: { requests_per_minute: number | null; run_starts_per_minute: number | null; concurrent_runs: number | null };
    created_at: string;
  };
  projects: ProjectSettings[];
}

export const SETTINGS_KEY = ['settings'] as const;
