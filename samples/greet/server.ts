import { compile, serveStdio } from 'toolwright';
import { GreetTool } from './greet.js';

await serveStdio({ name: 'greeter', version: '1.0.0' }, compile([GreetTool]));
