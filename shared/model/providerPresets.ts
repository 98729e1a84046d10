/**
 * Starting points for model profiles on OpenAI-compatible servers. A preset fills a profile's base
 * URL, API key variable and tool-calling mode; the profile is saved as ordinary settings (presets
 * are not referenced by name, so changing this list never changes a saved profile).
 */
export interface ProviderPreset {
  id: 'openai' | 'ollama' | 'lmstudio' | 'vllm' | 'openrouter' | 'groq' | 'anthropic' | 'gemini' | 'azure' | 'nvidia' | 'mistral' | 'deepseek' | 'xai' | 'together' | 'fireworks' | 'cerebras' | 'huggingface' | 'custom';
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
    id: 'groq',
    label: 'Groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    apiKeyEnv: 'GROQ_API_KEY',
    needsKey: true,
    exampleModel: 'llama-3.3-70b-versatile',
    help: 'Groq (OpenAI-compatible API); needs an API key.',
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    needsKey: true,
    exampleModel: 'claude-3-5-haiku-latest',
    help: 'Anthropic (OpenAI SDK compatibility endpoint); needs an API key.',
  },
  {
    id: 'gemini',
    label: 'Google Gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    apiKeyEnv: 'GEMINI_API_KEY',
    needsKey: true,
    exampleModel: 'gemini-2.0-flash',
    help: 'Gemini (OpenAI-compatible endpoint of Google AI Studio); needs an API key.',
  },
  {
    id: 'azure',
    label: 'Azure OpenAI',
    baseUrl: 'https://YOUR-RESOURCE.openai.azure.com/openai/v1',
    apiKeyEnv: 'AZURE_API_KEY',
    needsKey: true,
    exampleModel: 'gpt-4o-mini',
    help: 'Azure OpenAI v1 API: put your resource name in the URL; the model is your deployment name.',
  },
  {
    id: 'nvidia',
    label: 'NVIDIA NIM',
    baseUrl: 'https://integrate.api.nvidia.com/v1',
    apiKeyEnv: 'NVIDIA_NIM_API_KEY',
    needsKey: true,
    exampleModel: 'meta/llama-3.1-70b-instruct',
    help: 'NVIDIA NIM endpoints (build.nvidia.com); needs an API key.',
  },
  {
    id: 'mistral',
    label: 'Mistral',
    baseUrl: 'https://api.mistral.ai/v1',
    apiKeyEnv: 'MISTRAL_API_KEY',
    needsKey: true,
    exampleModel: 'mistral-small-latest',
    help: 'Mistral La Plateforme; needs an API key.',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    needsKey: true,
    exampleModel: 'deepseek-chat',
    help: 'DeepSeek; needs an API key.',
  },
  {
    id: 'xai',
    label: 'xAI',
    baseUrl: 'https://api.x.ai/v1',
    apiKeyEnv: 'XAI_API_KEY',
    needsKey: true,
    exampleModel: 'grok-3-mini',
    help: 'xAI (Grok); needs an API key.',
  },
  {
    id: 'together',
    label: 'Together AI',
    baseUrl: 'https://api.together.xyz/v1',
    apiKeyEnv: 'TOGETHERAI_API_KEY',
    needsKey: true,
    exampleModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    help: 'Together AI; needs an API key.',
  },
  {
    id: 'fireworks',
    label: 'Fireworks AI',
    baseUrl: 'https://api.fireworks.ai/inference/v1',
    apiKeyEnv: 'FIREWORKS_AI_API_KEY',
    needsKey: true,
    exampleModel: 'accounts/fireworks/models/llama-v3p1-8b-instruct',
    help: 'Fireworks AI; needs an API key.',
  },
  {
    id: 'cerebras',
    label: 'Cerebras',
    baseUrl: 'https://api.cerebras.ai/v1',
    apiKeyEnv: 'CEREBRAS_API_KEY',
    needsKey: true,
    exampleModel: 'llama3.1-8b',
    help: 'Cerebras inference; needs an API key.',
  },
  {
    id: 'huggingface',
    label: 'Hugging Face',
    baseUrl: 'https://router.huggingface.co/v1',
    apiKeyEnv: 'HF_TOKEN',
    needsKey: true,
    exampleModel: 'meta-llama/Llama-3.1-8B-Instruct',
    help: 'Hugging Face inference router; needs a token.',
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
