/**
 * Deterministic, varied memory texts for `npm run bench:memory`: sentences assembled from a
 * vocabulary with a seeded PRNG (mulberry32), so every run ingests and queries the same data, and no
 * two records are copies of one line.
 */

/** mulberry32: a small, fast, seeded 32-bit PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  'the customer', 'the billing team', 'our lead engineer', 'the marketing manager', 'the support desk', 'the data pipeline',
  'the nightly build', 'the payment service', 'the mobile app', 'the research agent', 'the reviewer', 'the finance department',
  'the onboarding flow', 'the search index', 'the staging cluster', 'the legal team', 'the sales director', 'the analytics dashboard',
  'the recommendation model', 'the warehouse system', 'the design team', 'the product owner', 'the security audit', 'the inventory report',
  'the partner in Berlin', 'the client from Osaka', 'the vendor in Toronto', 'the new intern', 'the on-call engineer', 'the copywriter',
  'the translation service', 'the email campaign', 'the quarterly forecast', 'the load balancer', 'the authentication module', 'the crawler',
];
const VERBS = [
  'prefers', 'rejected', 'approved', 'needs', 'reported', 'depends on', 'replaced', 'scheduled', 'migrated', 'requested', 'cancelled',
  'postponed', 'optimised', 'documented', 'flagged', 'reviewed', 'duplicated', 'exported', 'archived', 'escalated', 'summarised',
  'benchmarked', 'budgeted for', 'complained about', 'asked again about', 'signed off', 'rolled back', 'translated', 'audited', 'priced',
];
const OBJECTS = [
  'weekly status emails', 'the invoice template', 'solar panel installation quotes', 'the Postgres migration', 'a dark theme for the dashboard',
  'the refund policy', 'shipping rates to Canada', 'the API rate limits', 'vegetarian catering for the offsite', 'the churn analysis',
  'two-factor authentication', 'the pricing page copy', 'the Kubernetes upgrade', 'customer interviews in March', 'the logo redesign',
  'GDPR data export requests', 'the holiday schedule', 'the press release draft', 'CSV imports over 50 MB', 'the Spanish localisation',
  'battery warranty claims', 'the onboarding checklist', 'the SEO keyword list', 'latency alerts at night', 'the contract renewal',
  'the cold storage backups', 'the competitor comparison', 'PDF reports for executives', 'the webhook retries', 'the A/B test on checkout',
  'the electric vehicle fleet', 'the hiring plan', 'the tax filing deadline', 'Slack notifications', 'the user survey results',
  'the data retention rules', 'the coffee machine budget', 'the wind farm proposal', 'the chatbot tone of voice', 'the release notes',
  'the fraud detection rules', 'the sandbox credentials', 'the annual conference booth', 'the printer firmware', 'the loyalty programme',
  'the supplier audit in Vietnam', 'the heat pump rebate', 'the cache invalidation bug', 'the quarterly board deck', 'the translation memory',
];
const QUALIFIERS = [
  'because the deadline moved', 'after the outage last week', 'before the end of the quarter', 'on Tuesday mornings', 'in plain language',
  'with a 10% discount', 'only for enterprise accounts', 'until legal reviews it', 'as soon as possible', 'without telling the vendor',
  'due to budget cuts', 'to reduce support tickets', 'for the European market', 'when traffic is low', 'in the next sprint',
  'after two failed attempts', 'with more detailed metrics', 'in a shorter format', 'using the new template', 'for compliance reasons',
  'despite the higher cost', 'to match the brand guide', 'with weekly checkpoints', 'once the pilot succeeds', 'on the shared drive',
];
const OPENERS = ['', '', '', 'Note: ', 'Reminder: ', 'Lesson learned: ', 'Important: ', 'Decision: ', 'FYI, ', 'Observed: '];
const EXTRAS = [
  (r: () => number) => ` The estimate is ${Math.floor(r() * 900 + 100)} hours.`,
  (r: () => number) => ` Ticket #${Math.floor(r() * 90000 + 10000)} tracks it.`,
  (r: () => number) => ` Budget: ${Math.floor(r() * 95 + 5)}k EUR.`,
  (r: () => number) => ` It was discussed on ${['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'][Math.floor(r() * 5)]}.`,
  (r: () => number) => ` Confidence is ${['low', 'medium', 'high'][Math.floor(r() * 3)]}.`,
  () => '',
  () => '',
  () => '',
];

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One memory-like sentence (sometimes two). */
export function memorySentence(r: () => number): string {
  const opener = pick(r, OPENERS);
  const subject = pick(r, SUBJECTS);
  const body = `${subject} ${pick(r, VERBS)} ${pick(r, OBJECTS)} ${pick(r, QUALIFIERS)}.`;
  const first = opener ? `${opener}${body}` : capitalise(body);
  return first + pick(r, EXTRAS)(r);
}

/** A short question-like query, as a task description or a search box would give. */
export function memoryQuery(r: () => number): string {
  const forms = [
    () => `what does ${pick(r, SUBJECTS)} think about ${pick(r, OBJECTS)}`,
    () => `${pick(r, OBJECTS)} ${pick(r, QUALIFIERS)}`,
    () => `who ${pick(r, VERBS)} ${pick(r, OBJECTS)}`,
    () => `Prepare a summary of ${pick(r, OBJECTS)} for ${pick(r, SUBJECTS)}`,
    () => `${pick(r, OBJECTS)}`,
    () => `status of ${pick(r, OBJECTS)} and ${pick(r, OBJECTS)}`,
  ];
  return pick(r, forms)();
}

export const SCOPES = ['/crew/research', '/crew/research/agent/analyst', '/crew/support', '/crew/support/agent/writer', '/crew/sales'];
export const CATEGORIES = ['preference', 'decision', 'fact', 'lesson', 'contact', 'deadline'];
