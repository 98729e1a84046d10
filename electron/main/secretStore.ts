import { JsonFileUnreadable, readJsonFile, writeJsonFileAtomic } from './jsonFile';

/** Electron's safeStorage in the shape the store needs (tests pass their own). */
export interface Encryptor {
  /** Undefined when strings can be encrypted; otherwise why not, in words for the person. */
  unavailableReason(): string | undefined;
  encrypt(plainText: string): Buffer;
  decrypt(encrypted: Buffer): string;
}

export class SecretStoreError extends Error {
  constructor(
    readonly reason: 'unavailable' | 'unreadable' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'SecretStoreError';
  }
}

interface SecretsFile {
  version: 1;
  /** Variable name → base64 of the encrypted value. */
  secrets: Record<string, string>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,100}$/;

/**
 * API keys encrypted with the OS keychain (Electron safeStorage) in one JSON file in userData. Only
 * ciphertext is written; plaintext leaves only through `decryptAll`, for the runtime's environment.
 */
export class SecretStore {
  constructor(
    private readonly file: string,
    private readonly encryptor: Encryptor,
  ) {}

  /** Undefined when keys can be stored. */
  unavailableReason(): string | undefined {
    return this.encryptor.unavailableReason();
  }

  names(): string[] {
    return Object.keys(this.read().secrets).sort();
  }

  set(name: string, value: string): void {
    if (!NAME.test(name)) throw new SecretStoreError('invalid', `"${name}" is not an environment variable name`);
    const reason = this.encryptor.unavailableReason();
    if (reason) throw new SecretStoreError('unavailable', `cannot store ${name}: ${reason}`);
    const file = this.read();
    file.secrets[name] = this.encryptor.encrypt(value).toString('base64');
    writeJsonFileAtomic(this.file, file);
  }

  /** Returns whether the name was stored. */
  delete(name: string): boolean {
    const file = this.read();
    if (!(name in file.secrets)) return false;
    delete file.secrets[name];
    writeJsonFileAtomic(this.file, file);
    return true;
  }

  /** Every value the keychain can still decrypt; names it cannot (another keychain, a reset) in `failed`. */
  decryptAll(): { values: Record<string, string>; failed: string[] } {
    const values: Record<string, string> = {};
    const failed: string[] = [];
    const { secrets } = this.read();
    if (Object.keys(secrets).length > 0 && this.encryptor.unavailableReason()) return { values, failed: Object.keys(secrets) };
    for (const [name, encoded] of Object.entries(secrets)) {
      try {
        values[name] = this.encryptor.decrypt(Buffer.from(encoded, 'base64'));
      } catch {
        failed.push(name);
      }
    }
    return { values, failed };
  }

  private read(): SecretsFile {
    let data: unknown;
    try {
      data = readJsonFile(this.file);
    } catch (error) {
      const reason = error instanceof JsonFileUnreadable ? error.message : String(error);
      throw new SecretStoreError('unreadable', `the API key store ${reason}; delete it to start over (the keys in it are lost)`);
    }
    if (data === undefined) return { version: 1, secrets: {} };
    const secrets = (data as { secrets?: unknown } | null)?.secrets;
    const valid =
      (data as { version?: unknown }).version === 1 &&
      typeof secrets === 'object' &&
      secrets !== null &&
      !Array.isArray(secrets) &&
      Object.entries(secrets).every(([name, value]) => NAME.test(name) && typeof value === 'string');
    if (!valid) {
      throw new SecretStoreError('unreadable', `the API key store ${this.file} is not in the expected format; delete it to start over (the keys in it are lost)`);
    }
    return { version: 1, secrets: { ...(secrets as Record<string, string>) } };
  }
}

/** Electron's safeStorage as an Encryptor. On Linux without a keyring it only obfuscates: refused. */
export function safeStorageEncryptor(
  safeStorage: {
    isEncryptionAvailable(): boolean;
    encryptString(plainText: string): Buffer;
    decryptString(encrypted: Buffer): string;
    getSelectedStorageBackend?(): string;
  },
  platform: NodeJS.Platform,
): Encryptor {
  return {
    unavailableReason() {
      if (!safeStorage.isEncryptionAvailable()) return 'the operating system keychain is not available; set the variable in the environment instead';
      if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
        return 'no keyring (GNOME Keyring / KWallet) was found, so keys could only be obfuscated, not encrypted; set the variable in the environment instead';
      }
      return undefined;
    },
    encrypt: (plainText) => safeStorage.encryptString(plainText),
    decrypt: (encrypted) => safeStorage.decryptString(encrypted),
  };
}
