// toolbar.js — the "Copy link", "Download PNG", "Download CSV" buttons
// and the status line that answers them.

/** Builds the toolbar; `actions` maps a string key to its click handler. */
export function buildToolbar(actions) {
  const bar = document.createElement('div');
  bar.className = 'toolbar';
  bar.setAttribute('part', 'toolbar');
  bar.setAttribute('role', 'group');
  bar.dataset.keyLabel = 'toolbar';
  for (const [key, action] of Object.entries(actions)) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.key = key;
    b.dataset.action = key;
    b.addEventListener('click', action);
    bar.append(b);
  }
  const status = document.createElement('span');
  status.className = 'status';
  status.setAttribute('role', 'status');
  bar.append(status);
  return { bar, status };
}
