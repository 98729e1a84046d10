/**
 * Starting points for model profiles on OpenAI-compatible servers. A preset fills a profile's base
 * URL, API key variable and tool-calling mode; the profile is saved as ordinary settings (presets
 * are not referenced by name, so changing this list never changes a saved profile).
 */
export interface ProviderPreset {
  id: 'openai' | 'ollama' | 'lmstudio' | 'vllm' | 'openrouter' | 'custom';
  label: string;
  /** Empty: the OpenAI default (or OPENAI_BASE_URL). For `custom`, a placeholder for the user to replace. */
  baseUrl: string;
  /** Environment variable (or stored key) holding the API key; empty when the server takes none. */
  apiKeyEnv: string;
  /** Whether the server refuses requests without a key. */
  needsKey: boolean;
  /** Native tool calls (true), the ReAct text protocol (false), or automatic (undefined). */
  nativeTools?: boolean;
  /** A model id to start from. */
  exampleModel: string;
  help: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    baseUrl: '',
    apiKeyEnv: 'OPENAI_API_KEY',
    needsKey: true,
    nativeTools: true,
    exampleModel: 'gpt-4.1-mini',
    help: 'api.openai.com; needs an API key.',
  },
  {
    id: 'ollama',
    label: 'Ollama',
    baseUrl: 'http://localhost:11434/v1',
    apiKeyEnv: '',
    needsKey: false,
    nativeTools: true,
    exampleModel: 'llama3.1',
    help: 'Local Ollama server (ollama serve); no key. Pick a model that supports tools, or switch tool calling to ReAct.',
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    apiKeyEnv: '',
    needsKey: false,
    nativeTools: false,
    exampleModel: 'qwen2.5-7b-instruct',
    help: 'LM Studio local server; no key. Many local models lack native tool calls, so ReAct is the default.',
  },
  {
    id: 'vllm',
    label: 'vLLM',
    baseUrl: 'http://localhost:8000/v1',
    apiKeyEnv: 'VLLM_API_KEY',
    needsKey: false,
    nativeTools: false,
    exampleModel: 'Qwen/Qwen2.5-7B-Instruct',
    help: 'vLLM OpenAI-compatible server; a key only if started with --api-key. Native tool calls need --enable-auto-tool-choice.',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    needsKey: true,
    nativeTools: true,
    exampleModel: 'openai/gpt-4.1-mini',
    help: 'OpenRouter; needs an API key. Model ids are vendor/model.',
  },
  {
    id: 'custom',
    label: 'Any OpenAI-compatible URL',
    baseUrl: 'http://localhost:8080/v1',
    apiKeyEnv: '',
    needsKey: false,
    exampleModel: '',
    help: 'Any server that speaks the OpenAI chat-completions API: set its base URL, and a key variable if it needs one.',
  },
];

/** The preset a profile's base URL matches (`custom` for other URLs; `openai` for none). */
export function presetForBaseUrl(baseUrl: string | undefined): ProviderPreset {
  const url = (baseUrl ?? '').trim().replace(/\/+$/, '');
  const found = PROVIDER_PRESETS.find((p) => p.id !== 'custom' && p.baseUrl.replace(/\/+$/, '') === url);
  return found ?? PROVIDER_PRESETS.find((p) => p.id === 'custom')!;
}
