import os from 'node:os';

/** The machine a benchmark ran on, written next to its figures. */
export interface MachineInfo {
  cores: number;
  cpu_model: string;
  ram_gb: number;
  node: string;
  platform: string;
  kernel: string;
  /** 1-minute load average when the run started (other work on a shared machine shows here). */
  loadavg_1m_at_start: number;
}

/** Describes this machine. */
export function machineInfo(): MachineInfo {
  return {
    cores: os.cpus().length,
    cpu_model: os.cpus()[0]?.model.trim() ?? 'unknown',
    ram_gb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    kernel: os.release(),
    loadavg_1m_at_start: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

/** One line for tables and logs. */
export function machineLine(m: MachineInfo): string {
  return `${m.cores} cores (${m.cpu_model}), ${m.ram_gb} GB RAM, Node ${m.node}, ${m.platform}, load ${m.loadavg_1m_at_start} at start`;
}
