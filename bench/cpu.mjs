// What CPU a benchmark ran on, in one line: the model name, and where Linux
// says them, the family and model numbers and the data caches of one core.
// The model name alone is not enough on a cloud VM: "AMD EPYC" has named
// machines with 32 KiB and with 48 KiB of L1 data cache on different days,
// and which floor binds the norms at 4096×4096 (docs/decisions.md, "LayerNorm
// past the caches") depends on the caches a row fits in.
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * One line about the CPU from the text of /proc/cpuinfo and the caches of
 * cpu0 (sysfs `cache/index*`: level, type, size, shared_cpu_list).
 * @param {{ model?: string, logical: number, cpuinfo?: string,
 *   caches?: { level: string, type: string, size: string, shared: string }[] }} facts
 * @returns {string} e.g. "AMD EPYC (family 25, model 17), 2 logical cores;
 *   per core L1d 32 KiB, L2 1 MiB; L3 32 MiB shared by cpus 0-1"
 */
export function describeCpu({ model, logical, cpuinfo = '', caches = [] }) {
  const field = (name) => cpuinfo.match(new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm'))?.[1].trim();
  const name = field('model name') || model?.trim() || 'unknown CPU';
  const family = field('cpu family');
  const number = field('model');
  let line = family && number ? `${name} (family ${family}, model ${number})` : name;
  line += `, ${logical} logical core${logical === 1 ? '' : 's'}`;
  const size = (s) => {
    const m = /^(\d+)K$/.exec(s.trim());
    if (!m) return s.trim();
    const k = Number(m[1]);
    return k >= 1024 && k % 1024 === 0 ? `${k / 1024} MiB` : `${k} KiB`;
  };
  const label = (c) => `L${c.level.trim()}${c.type.trim() === 'Data' ? 'd' : ''}`;
  const used = caches.filter((c) => c.type.trim() !== 'Instruction')
    .sort((a, b) => Number(a.level) - Number(b.level));
  const own = used.filter((c) => /^\d+$/.test(c.shared.trim()));
  const shared = used.filter((c) => !/^\d+$/.test(c.shared.trim()));
  const parts = [];
  if (own.length) parts.push(`per core ${own.map((c) => `${label(c)} ${size(c.size)}`).join(', ')}`);
  for (const c of shared) parts.push(`${label(c)} ${size(c.size)} shared by cpus ${c.shared.trim()}`);
  return parts.length ? `${line}; ${parts.join('; ')}` : line;
}

/** describeCpu for this machine (the caches and numbers only on Linux). */
export function thisCpu() {
  const list = cpus();
  let cpuinfo = '';
  const caches = [];
  try { cpuinfo = readFileSync('/proc/cpuinfo', 'utf8'); } catch { /* not Linux */ }
  try {
    const dir = '/sys/devices/system/cpu/cpu0/cache';
    for (const entry of readdirSync(dir).filter((e) => /^index\d+$/.test(e))) {
      const read = (f) => readFileSync(`${dir}/${entry}/${f}`, 'utf8');
      caches.push({ level: read('level'), type: read('type'), size: read('size'), shared: read('shared_cpu_list') });
    }
  } catch { /* no sysfs: the line says less */ }
  return describeCpu({ model: list[0]?.model, logical: list.length, cpuinfo, caches });
}
