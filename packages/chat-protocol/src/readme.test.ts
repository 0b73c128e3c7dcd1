import { describeReadmeQuickStart } from '../../../test-support/readme-quick-start.js';

describeReadmeQuickStart(new URL('..', import.meta.url));
