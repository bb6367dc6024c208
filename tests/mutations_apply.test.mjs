// make mutate (tools/mutate/) is too slow for make test, so a change that
// moves the code a mutation edits (a helper moved to a header, a line
// reworded) went unseen until the next mutate run refused to start. This
// checks, without building anything, that every mutation still applies:
// its pattern occurs exactly once in its file, the edit changes something,
// and each test it names is a test file of tests/ (the part before "::").
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { MUTATIONS } from '../tools/mutate/mutations.mjs';

const root = new URL('../', import.meta.url);

test('every make mutate mutation applies exactly once and names existing test files', () => {
  assert.ok(MUTATIONS.length >= 70, `${MUTATIONS.length} mutations`);
  const ids = new Set();
  for (const m of MUTATIONS) {
    assert.ok(!ids.has(m.id), `${m.id}: id used twice`);
    ids.add(m.id);
    const text = readFileSync(new URL(m.file, root), 'utf8');
    assert.equal(text.split(m.find).length - 1, 1, `${m.id}: its pattern must occur exactly once in ${m.file}`);
    assert.notEqual(m.find, m.replace, `${m.id}: find and replace are the same`);
    for (const t of m.tests ?? []) {
      const file = t.split('::')[0].trim();
      assert.ok(existsSync(new URL(`tests/${file}.test.mjs`, root)), `${m.id}: names test file ${file}, which does not exist`);
    }
  }
});

test('the docs give the number of mutations make mutate applies', () => {
  const quoted = [];
  for (const [file, pattern] of [['docs/accuracy.md', /`make mutate` applies (\d+) deliberate mistakes/], ['docs/development.md', /each of its (\d+) mistakes/]]) {
    const m = readFileSync(new URL(file, root), 'utf8').match(pattern);
    assert.ok(m, `${file} states the count`);
    quoted.push([file, Number(m[1])]);
  }
  assert.deepEqual(quoted, quoted.map(([file]) => [file, MUTATIONS.length]));
});
