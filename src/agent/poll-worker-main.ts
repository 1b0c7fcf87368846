import { startPollWorker } from './poll-worker';

/** Entry of a poll thread when the agent runs from its sources (the packaged agent starts its own file instead). */
startPollWorker();
