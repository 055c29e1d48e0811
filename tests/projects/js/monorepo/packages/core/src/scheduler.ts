import util from '@mono/util';

export interface Job {
  name: string;
  every: string;
  lastRun?: number;
}

export class Scheduler {
  private jobs = new Map<string, Job & { intervalMs: number }>();

  add(job: Job): void {
    if (this.jobs.has(job.name)) throw new Error(`duplicate job: ${job.name}`);
    this.jobs.set(job.name, { ...job, intervalMs: util.parseDuration(job.every) });
  }

  due(now: number): string[] {
    const out: string[] = [];
    for (const job of this.jobs.values()) {
      if (job.lastRun === undefined || now - job.lastRun >= job.intervalMs) out.push(job.name);
    }
    return out.sort();
  }

  markRun(name: string, at: number): void {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`unknown job: ${name}`);
    job.lastRun = at;
  }

  describe(name: string): string {
    const job = this.jobs.get(name);
    if (!job) return `${name}: unknown`;
    return `${name}: every ${util.formatDuration(job.intervalMs)}`;
  }
}
