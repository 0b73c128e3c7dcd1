#!/usr/bin/env node
// A turn still waiting on a card keeps timers alive after the host closed: exit with the code once it stopped.
import { main } from '../dist/cli.js';
process.exit(await main(process.argv.slice(2)));
