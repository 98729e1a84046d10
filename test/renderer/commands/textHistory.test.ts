// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { keepsOwnTextHistory } from '../../../renderer/commands/textHistory';

afterEach(() => {
  document.body.innerHTML = '';
});

const el = (id: string) => document.getElementById(id);

describe('keepsOwnTextHistory (who undoes Ctrl+Z: the text field or the document)', () => {
  it('text fields outside the inspector keep their own typing history', () => {
    document.body.innerHTML = `
      <input id="sidebar-name" />
      <textarea id="feedback"></textarea>
      <div contenteditable="true"><span id="inside-editable">x</span></div>
      <button id="button">Run</button>
      <div id="pane"></div>`;
    expect(keepsOwnTextHistory(el('sidebar-name'))).toBe(true);
    expect(keepsOwnTextHistory(el('feedback'))).toBe(true);
    expect(keepsOwnTextHistory(el('inside-editable'))).toBe(true);
    expect(keepsOwnTextHistory(el('button'))).toBe(false);
    expect(keepsOwnTextHistory(el('pane'))).toBe(false);
    expect(keepsOwnTextHistory(null)).toBe(false);
    expect(keepsOwnTextHistory(document.body)).toBe(false);
  });

  it('inspector fields undo whole document edits, unless marked data-native-undo', () => {
    document.body.innerHTML = `
      <aside data-undo-scope>
        <input id="role" />
        <select id="process"><option>sequential</option></select>
        <button id="add">Add</button>
        <div data-native-undo><textarea id="json"></textarea></div>
      </aside>
      <textarea id="repair" data-native-undo></textarea>`;
    expect(keepsOwnTextHistory(el('role'))).toBe(false);
    expect(keepsOwnTextHistory(el('process'))).toBe(false);
    expect(keepsOwnTextHistory(el('add'))).toBe(false);
    expect(keepsOwnTextHistory(el('json'))).toBe(true);
    expect(keepsOwnTextHistory(el('repair'))).toBe(true);
  });
});
