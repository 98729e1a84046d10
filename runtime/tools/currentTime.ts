import { defineTool, ToolError } from './tool';

export const currentTimeTool = defineTool({
  name: 'current_time',
  description:
    'Return the current date and time as an ISO 8601 timestamp with UTC offset plus a readable form, ' +
    "in the given IANA time zone (default: this computer's zone).",
  parameters: {
    type: 'object',
    properties: {
      timezone: { type: 'string', minLength: 1, description: 'IANA time zone such as "Europe/Paris", "America/New_York" or "UTC".' },
    },
    required: [],
    additionalProperties: false,
  },
  cacheable: false,
  async execute(args) {
    const timeZone = (args.timezone as string | undefined) ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    const now = new Date();
    let parts: Record<string, string>;
    let readable: string;
    try {
      parts = partsIn(now, timeZone);
      readable = new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'full', timeStyle: 'long' }).format(now);
    } catch (error) {
      if (error instanceof RangeError) {
        throw new ToolError(`unknown time zone "${timeZone}"; use an IANA name such as "Europe/Paris", "Asia/Tokyo" or "UTC"`);
      }
      throw error;
    }
    const iso = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offsetOf(parts.timeZoneName)}`;
    return `${iso} (${timeZone})\n${readable}`;
  },
});

function partsIn(date: Date, timeZone: string): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  return Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
}

/** "GMT+05:30" → "+05:30"; a zero offset ("GMT", "GMT+00:00") → "Z". */
function offsetOf(timeZoneName: string | undefined): string {
  const offset = (timeZoneName ?? 'GMT').replace(/^GMT/, '');
  return offset === '' || offset === '+00:00' || offset === '-00:00' ? 'Z' : offset;
}
