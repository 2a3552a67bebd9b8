// Placeholder until the migrations work lands (helper M owns this file and replaces it whole).
import type { CliCommand } from './command';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'Executes app DB migration scripts',
  help: 'Usage: outpost migrate [up | down [n] | create NAME | collections | history-sync]',
  async run() {
    console.error('The migrate command is not available yet.');
    return 1;
  },
};
