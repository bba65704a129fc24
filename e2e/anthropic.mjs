// Drives webgate's /v1/messages with the official TypeScript Anthropic SDK,
// the way an app built on the Messages API declares Anthropic's server
// tools: a streamed turn (accumulated by the SDK's MessageStream), the same
// turn without streaming, then a second turn that sends the first answer
// back. Prints one JSON summary for e2e/anthropic_test.go to check.
//
// Usage: node anthropic.mjs <base URL> <api key> <page URL>
import Anthropic from '@anthropic-ai/sdk';

const [, , baseURL, apiKey, pageURL] = process.argv;
const client = new Anthropic({ baseURL, apiKey, maxRetries: 0 });

const tools = [
  { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
  { type: 'web_fetch_20250910', name: 'web_fetch', citations: { enabled: true } },
];
const question = { role: 'user', content: `What does ${pageURL} say? Search the web as well.` };
const params = { model: 'claude-sonnet-4-5', max_tokens: 1024, tools, messages: [question] };

const events = [];
const stream = client.messages.stream(params);
stream.on('streamEvent', (e) => events.push(e.type));
const streamed = await stream.finalMessage();

const whole = await client.messages.create(params);

const second = await client.messages
  .stream({
    ...params,
    messages: [question, { role: 'assistant', content: streamed.content }, { role: 'user', content: 'Which source came first?' }],
  })
  .finalMessage();

console.log(JSON.stringify({ events, streamed, whole, second }));
