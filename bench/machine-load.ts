// Timings scale with what else runs on the machine: the 1-minute load printed beside them tells a
// busy machine's figures apart.
import os from 'node:os';

export const machineLoad = (): string => `load ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;
