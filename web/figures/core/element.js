// element.js — the reactive core every figure is built on, safe to import
// where there is no DOM (server rendering).
//
// - Each control is an attribute and a property at once. A value set as a
//   property before the element was defined (React, Vue and Svelte do this)
//   is replayed through the property once it is, and wins over the
//   attribute the element had then (a framework that hydrates server
//   markup and then sets `.dModel` on the client), as in Lit: the upgrade's
//   own report of that attribute is passed over. Anything written after the
//   upgrade, attribute or property, is taken as usual.
// - Attribute, property, URL and reader changes are collected and applied
//   together in a microtask, so the order of attributes or property writes
//   never matters: a dependent range (i < d_model / 2) is applied to the
//   value asked for, after all of them.
// - The figure keeps the value each control was asked for; the property
//   reads it clamped to its current range, so `<x i="40" d-model="128">` and
//   `<x d-model="128" i="40">` are the same figure.
// - Property, URL and reader changes are written back to the attribute
//   (guarded per property); an attribute set by the page is left as
//   written, like a native <input>'s value attribute.
// - `posnorm-change` fires once per changed control per batch, after the
//   figure has settled on the page — never for the values it starts with.

import { parseControl, resolveControl } from './controls.js';

/** The key under which rangesChanged() marks a batch in _pending (no control has it). */
const RANGES = Symbol('ranges');

/** HTMLElement where it exists; an empty class on a server. */
const ElementBase = typeof HTMLElement === 'function' ? HTMLElement : class {};

/**
 * Dispatches a namespaced event that crosses shadow roots, while `el` is
 * on a page: a figure off the page (removed, or never added) changes its
 * state without events (its posnorm-change waits for the page too), and a
 * figure that cannot run and was removed before it could say so rejects
 * its `ready` without a posnorm-error.
 */
export function emit(el, type, detail) {
  if (!el.isConnected) return;
  el.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

export class PnElement extends ElementBase {
  /** The controls of the subclass (see controls.js). */
  static controls = [];

  static get observedAttributes() {
    return [...this.controls.map((c) => c.attr), 'lang'];
  }

  /**
   * Gives the subclass a property per control and registers `tag` where
   * custom elements exist; a no-op on a server.
   */
  static define(tag) {
    if (!Object.prototype.hasOwnProperty.call(this, 'controlByProp')) {
      this.controlByProp = new Map(this.controls.map((c) => [c.prop, c]));
      this.controlByAttr = new Map(this.controls.map((c) => [c.attr, c]));
      for (const c of this.controls) {
        Object.defineProperty(this.prototype, c.prop, {
          get() { return this.valueOf(c.prop); },
          set(v) { this.request(c.prop, v, 'property'); },
          configurable: true,
          enumerable: true,
        });
      }
    }
    const registry = globalThis.customElements;
    if (registry && !registry.get(tag)) registry.define(tag, this);
  }

  constructor() {
    super();
    /** prop → the value asked for (parsed, within fixed bounds). */
    this._requested = new Map();
    /** prop → source of a change not yet applied. */
    this._pending = new Map();
    /** Properties whose attribute is being written by the figure itself. */
    this._reflecting = new Set();
    /** Properties whose attribute the figure keeps in step with its value. */
    this._reflects = new Set();
    this._applied = null;
    this._settled = false;
    this._queued = false;
    // values set on the element before it was upgraded, asked for now; the
    // upgrade then reports each attribute the element has to
    // attributeChangedCallback (old value null), which would override them:
    // those reports, for the controls set early, are passed
    // over. An upgrade's attributes are taken here too (the same reports
    // then pass over them), so that the constructor of a figure already
    // sees the sizes its markup asks for: a heatmap's cursor written before
    // the upgrade was clamped to the default sizes, not the markup's
    this._shadowed = null;
    for (const c of this.constructor.controls) {
      const attr = this.hasAttribute?.(c.attr) ? this.getAttribute(c.attr) : null;
      if (attr !== null) (this._shadowed ??= new Map()).set(c.attr, attr);
      if (Object.prototype.hasOwnProperty.call(this, c.prop)) {
        const value = this[c.prop];
        delete this[c.prop];
        this.request(c.prop, value, 'property');
      } else if (attr !== null) {
        this.request(c.prop, attr, 'attribute');
      }
    }
  }

  /** The current value of a control: the value asked for, in its current range. */
  valueOf(prop) {
    const c = this.constructor.controlByProp.get(prop);
    return resolveControl(this, c, this._requested.has(prop) ? this._requested.get(prop) : c.def);
  }

  /** Every control's current value, by property name. */
  get values() {
    return Object.fromEntries(this.constructor.controls.map((c) => [c.prop, this.valueOf(c.prop)]));
  }

  /**
   * Asks for a control value. `source` is 'property', 'attribute', 'url' or
   * 'user'; undefined or null returns the control to its default.
   */
  request(prop, raw, source) {
    const c = this.constructor.controlByProp.get(prop);
    if (raw === undefined || raw === null) this._requested.delete(prop);
    else this._requested.set(prop, parseControl(c, raw));
    if (source === 'attribute') this._reflects.delete(prop);
    else if (raw !== undefined && raw !== null) this._reflects.add(prop);
    this._pending.set(prop, source);
    if (!this._queued) {
      this._queued = true;
      queueMicrotask(() => this._applyPending());
    }
  }

  /**
   * A control's range changed outside a batch: the figure learned it from
   * data (rope-config's pair count, once a pasted config is read or the
   * kernels have started). Runs a batch, so that the values it clamps are
   * reflected and announced, with `source` (that of the change the data
   * came from), or silently, as values the figure starts with, when
   * `source` is undefined.
   */
  rangesChanged(source) {
    this._pending.set(RANGES, source);
    if (!this._queued) {
      this._queued = true;
      queueMicrotask(() => this._applyPending());
    }
  }

  /** Makes sure a first batch runs once the element is on the page (it settles there). */
  settle() {
    if (this._settled || this._queued) return;
    this._queued = true;
    queueMicrotask(() => this._applyPending());
  }

  attributeChangedCallback(name, old, value) {
    if (name === 'lang') {
      if (old !== value) this.languageChanged?.();
      return;
    }
    const c = this.constructor.controlByAttr.get(name);
    // (a write of the text the attribute already holds is taken too: the
    // value asked for may differ from it, after a property write whose
    // clamped value was reflected, or a property cleared to the default)
    if (!c || this._reflecting.has(c.prop)) return;
    // the upgrade's report of an attribute a property set early shadows
    if (old === null && this._shadowed?.get(name) === value) {
      this._shadowed.delete(name);
      return;
    }
    this.request(c.prop, value, 'attribute');
  }

  /** Applies every change asked for since the last batch. */
  _applyPending() {
    // (the upgrade, which reports every attribute at once, is over by now)
    this._shadowed = null;
    this._queued = false;
    const pending = this._pending;
    this._pending = new Map();
    const now = this.values;
    const before = this._applied ?? now;
    // (a range learned with the figure's first data clamps values it starts with: no event)
    const silent = pending.size === 1 && pending.has(RANGES) && pending.get(RANGES) === undefined;
    const announce = this._settled && this.isConnected && !silent;
    const cause = [...pending.values()].at(-1);
    const changed = [];
    for (const c of this.constructor.controls) {
      const value = now[c.prop];
      if (this._reflects.has(c.prop)) this._reflect(c, value);
      if (!Object.is(value, before[c.prop]) || this._applied === null) changed.push(c.prop);
    }
    this._applied = now;
    if (this.isConnected) this._settled = true;
    this.controlsChanged?.(changed);
    if (announce) {
      for (const prop of changed) {
        if (Object.is(now[prop], before[prop])) continue;
        emit(this, 'posnorm-change', { name: prop, value: now[prop], source: pending.get(prop) ?? cause });
      }
    }
  }

  _reflect(c, value) {
    // on a server (no DOM: an instance made for rendering to HTML) there is
    // no attribute to reflect to; it threw from the batch's microtask
    if (typeof this.getAttribute !== 'function') return;
    const text = String(value);
    if (this.getAttribute(c.attr) === text) return;
    this._reflecting.add(c.prop);
    try {
      this.setAttribute(c.attr, text);
    } finally {
      this._reflecting.delete(c.prop);
    }
  }
}
