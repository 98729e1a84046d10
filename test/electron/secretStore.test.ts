import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleSecretRequest, storedEnvironment } from '../../electron/main/secretsChannel';
import { SecretStore, SecretStoreError, safeStorageEncryptor, type Encryptor } from '../../electron/main/secretStore';

/** A real cipher standing in for the OS keychain (AES-256-GCM with a per-test key). */
function aesEncryptor(key = randomBytes(32), available = true): Encryptor {
  return {
    unavailableReason: () => (available ? undefined : 'no keychain in this test'),
    encrypt(plainText) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const SECRET = 'sk-live-0123456789abcdefSECRET';
let dir = '';
let file = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-secrets-'));
  file = join(dir, 'secrets.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SecretStore', () => {
  it('never writes the plaintext, and decrypts it back', () => {
    const store = new SecretStore(file, aesEncryptor());
    store.set('OPENAI_API_KEY', SECRET);
    store.set('OTHER_KEY', 'value-two');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(text).toContain('OPENAI_API_KEY');
    expect(store.names()).toEqual(['OPENAI_API_KEY', 'OTHER_KEY']);
    expect(new SecretStore(file, aesEncryptor()).names()).toEqual(['OPENAI_API_KEY', 'OTHER_KEY']);
    expect(store.decryptAll()).toEqual({ values: { OPENAI_API_KEY: SECRET, OTHER_KEY: 'value-two' }, failed: [] });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('overwrites and deletes', () => {
    const store = new SecretStore(file, aesEncryptor());
    store.set('OPENAI_API_KEY', 'first');
    store.set('OPENAI_API_KEY', 'second');
    expect(store.decryptAll().values).toEqual({ OPENAI_API_KEY: 'second' });
    expect(store.delete('OPENAI_API_KEY')).toBe(true);
    expect(store.delete('OPENAI_API_KEY')).toBe(false);
    expect(store.names()).toEqual([]);
  });

  it('refuses to store anything when encryption is not available', () => {
    const store = new SecretStore(file, aesEncryptor(undefined, false));
    expect(() => store.set('OPENAI_API_KEY', SECRET)).toThrow(/cannot store OPENAI_API_KEY: no keychain/);
    expect(() => readFileSync(file)).toThrow();
  });

  it('reports keys another keychain encrypted instead of failing them all', () => {
    new SecretStore(file, aesEncryptor()).set('OLD_KEY', 'a');
    const store = new SecretStore(file, aesEncryptor());
    store.set('NEW_KEY', 'b');
    expect(store.decryptAll()).toEqual({ values: { NEW_KEY: 'b' }, failed: ['OLD_KEY'] });
  });

  it('a corrupt file is a clear error, not a crash, and is not overwritten', () => {
    writeFileSync(file, '{"version": 1, "secrets": {"OPENAI');
    const store = new SecretStore(file, aesEncryptor());
    expect(() => store.names()).toThrow(SecretStoreError);
    expect(() => store.names()).toThrow(/API key store .*secrets\.json is not readable: not JSON.*delete it to start over/);
    expect(() => store.set('OPENAI_API_KEY', SECRET)).toThrow(SecretStoreError);
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1, "secrets": {"OPENAI');
    writeFileSync(file, JSON.stringify({ version: 1, secrets: ['x'] }));
    expect(() => store.names()).toThrow(/not in the expected format/);
    const logs: string[] = [];
    expect(storedEnvironment(store, (line) => logs.push(line))).toEqual({});
    expect(logs[0]).toMatch(/not in the expected format/);
  });

  it('safeStorage on Linux without a keyring (basic_text) counts as unavailable', () => {
    const fake = { isEncryptionAvailable: () => true, encryptString: (s: string) => Buffer.from(s), decryptString: (b: Buffer) => b.toString(), getSelectedStorageBackend: () => 'basic_text' };
    expect(safeStorageEncryptor(fake, 'linux').unavailableReason()).toMatch(/no keyring/);
    expect(safeStorageEncryptor({ ...fake, getSelectedStorageBackend: () => 'gnome_libsecret' }, 'linux').unavailableReason()).toBeUndefined();
    expect(safeStorageEncryptor({ ...fake, isEncryptionAvailable: () => false }, 'darwin').unavailableReason()).toMatch(/keychain is not available/);
  });
});

describe('secrets.* answered by main', () => {
  function deps(store: SecretStore, referenced: Array<{ name: string; present: boolean }> = []) {
    const applied: Array<Record<string, string | null>> = [];
    return {
      applied,
      deps: { store, baseEnv: { SHELL_KEY: 'from-shell' }, applyEnv: (values: Record<string, string | null>) => applied.push(values), referencedNames: async () => referenced },
    };
  }

  it('set stores encrypted, sends the value to the runtime, and never returns it', async () => {
    const store = new SecretStore(file, aesEncryptor());
    const { deps: d, applied } = deps(store);
    const result = await handleSecretRequest('secrets.set', { name: 'OPENAI_API_KEY', value: SECRET }, d);
    expect(result).toEqual({ ok: true, response: {} });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(applied).toEqual([{ OPENAI_API_KEY: SECRET }]);
    expect(store.decryptAll().values.OPENAI_API_KEY).toBe(SECRET);
  });

  it('list merges the workspace’s names with the stored ones, without values', async () => {
    const store = new SecretStore(file, aesEncryptor());
    store.set('ANTHROPIC_KEY', SECRET);
    const { deps: d } = deps(store, [
      { name: 'OPENAI_API_KEY', present: false },
      { name: 'ANTHROPIC_KEY', present: true },
    ]);
    const result = await handleSecretRequest('secrets.list', {}, d);
    expect(result).toEqual({
      ok: true,
      response: {
        writable: true,
        names: [
          { name: 'ANTHROPIC_KEY', present: true, stored: true },
          { name: 'OPENAI_API_KEY', present: false, stored: false },
        ],
      },
    });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('delete falls back to the shell’s value, or unsets', async () => {
    const store = new SecretStore(file, aesEncryptor());
    store.set('SHELL_KEY', 'stored');
    store.set('ONLY_STORED', 'stored');
    const { deps: d, applied } = deps(store);
    await handleSecretRequest('secrets.delete', { name: 'SHELL_KEY' }, d);
    await handleSecretRequest('secrets.delete', { name: 'ONLY_STORED' }, d);
    await handleSecretRequest('secrets.delete', { name: 'NEVER_STORED' }, d);
    expect(applied).toEqual([{ SHELL_KEY: 'from-shell' }, { ONLY_STORED: null }]);
  });

  it('without a keychain: list says not writable, set is refused with the reason', async () => {
    const store = new SecretStore(file, aesEncryptor(undefined, false));
    const { deps: d, applied } = deps(store, [{ name: 'OPENAI_API_KEY', present: true }]);
    const list = await handleSecretRequest('secrets.list', {}, d);
    expect(list.ok && (list.response as { writable: boolean }).writable).toBe(false);
    const set = await handleSecretRequest('secrets.set', { name: 'OPENAI_API_KEY', value: SECRET }, d);
    expect(set).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(!set.ok && set.error.message).toMatch(/no keychain/);
    expect(!set.ok && set.error.message).not.toContain(SECRET);
    expect(applied).toEqual([]);
  });

  it('a corrupt store comes back as an error the settings screen can show', async () => {
    writeFileSync(file, 'garbage');
    const { deps: d } = deps(new SecretStore(file, aesEncryptor()));
    const list = await handleSecretRequest('secrets.list', {}, d);
    expect(list).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(!list.ok && list.error.message).toMatch(/delete it to start over/);
  });
});
