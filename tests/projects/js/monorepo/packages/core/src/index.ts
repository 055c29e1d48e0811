export { Scheduler, type Job } from './scheduler.js';
