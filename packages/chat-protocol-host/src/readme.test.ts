import { describeReadmeExample } from '../../../test-support/readme-example.js';

describeReadmeExample(new URL('../', import.meta.url));
describeReadmeExample(new URL('../', import.meta.url), 'ai-sdk-chat');
describeReadmeExample(new URL('../', import.meta.url), 'own-agent');
describeReadmeExample(new URL('../', import.meta.url), 'plug-in-your-model');
describeReadmeExample(new URL('../', import.meta.url), 'opentelemetry');
