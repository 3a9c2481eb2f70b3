import { launch } from './launch';

/** `npm start`: the whole system on embedded defaults, with the Temporal dev server, one worker and one API. */
void launch({ command: 'npm start', engine: 'dev server', workers: 1, apis: 1 });
