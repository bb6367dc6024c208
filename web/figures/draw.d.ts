// draw.js is internal to the figures; it has no public API.
export {};
