// Package openai translates between Anthropic's Messages API and OpenAI's
// Chat Completions API, so the proxy can sit in front of Chat
// Completions-compatible upstreams (DeepSeek, GLM, Kimi, OpenRouter,
// Copilot, Ollama, vLLM). It does no I/O of its own beyond reading an SSE
// body: [ToChat] builds the upstream request, [FromChat] converts a
// non-streaming reply and [StreamTranslator] converts a streamed one into
// Anthropic events on an [anthropic.EventWriter].
//
// # Requests (ToChat)
//
//	Messages API                     Chat Completions
//	model                            model, through Options.Models (glob
//	                                 patterns, path.Match syntax, first match
//	                                 wins; unmatched names pass through)
//	system (string or text blocks)   one leading "system" message; blocks
//	                                 joined with a blank line
//	user text blocks                 "user" message; a plain string (blocks
//	                                 joined with a blank line) unless it
//	                                 has images, then content parts
//	image, base64 source             image_url part with a data: URL
//	image, url source                image_url part with the URL
//	user tool_result                 one "tool" message per result with
//	                                 tool_call_id, placed before the user
//	                                 message holding the turn's other
//	                                 blocks (tool messages must directly
//	                                 follow the assistant's tool_calls);
//	                                 content string or text blocks joined
//	                                 with a blank line; is_error prefixes
//	                                 "Error: "; images in a result move to
//	                                 the following user message
//	assistant text blocks            content, concatenated as is
//	assistant tool_use               tool_calls[] {id, type function,
//	                                 function {name, arguments = compact
//	                                 JSON of input}}; content null if there
//	                                 is no text
//	thinking, redacted_thinking      dropped (upstream reasoning carries no
//	                                 signature and cannot be replayed;
//	                                 DeepSeek rejects reasoning_content in
//	                                 input)
//	tools [{name, description,       tools [{type function, function {name,
//	  input_schema}]                   description, parameters}}]
//	tool_choice auto/any/none        "auto"/"required"/"none"
//	tool_choice tool {name}          {type function, function {name}}
//	disable_parallel_tool_use        parallel_tool_calls false
//	max_tokens                       max_tokens, or max_completion_tokens
//	                                 with Options.MaxCompletionTokens
//	stop_sequences                   stop
//	temperature, top_p               temperature, top_p
//	metadata.user_id                 user
//	stream                           stream, stream_options.include_usage
//
// Dropped silently: top_k, thinking, service_tier, cache_control markers
// and any unknown member. Refused with an error wrapping [ErrUnsupported]:
// server tools (web_search_* and other typed tools), document,
// search_result, server_tool_use, web_search_tool_result and other block
// types, non-text system blocks, image sources other than base64 and url,
// unknown tool_choice types.
//
// # Responses (FromChat)
//
//	reasoning_content (DeepSeek,     a leading thinking block with an
//	  vLLM, Kimi, GLM) or reasoning    empty signature
//	  (OpenRouter, Ollama)
//	content (or refusal)             a text block
//	tool_calls                       tool_use blocks; upstream ids kept,
//	                                 toolu_ ids generated when absent;
//	                                 arguments parsed (empty = {}; not a
//	                                 JSON object = error)
//	finish_reason stop               end_turn (tool_use if tool calls are
//	                                 present, as some servers report stop)
//	length                           max_tokens
//	tool_calls, function_call        tool_use
//	content_filter, or a refusal     refusal
//	usage prompt_tokens              input_tokens, minus cached tokens
//	cached_tokens or DeepSeek's      cache_read_input_tokens
//	  prompt_cache_hit_tokens
//	completion_tokens                output_tokens
//	id                               "msg_" + id (generated when absent)
//	model                            Options.Model when set, else upstream's
//
// A matched stop sequence is reported as end_turn: Chat Completions does
// not say which one matched. Only choice 0 is used.
//
// # Streams (StreamTranslator)
//
// message_start is written on the first chunk (usage zero: Chat
// Completions reports usage only at the end). Reasoning deltas become a
// thinking block with thinking_delta events, content deltas a text block
// with text_delta events; switching between them closes one block and
// opens the next, so block indices stay continuous. Each tool call becomes
// a tool_use block whose content_block_start carries the id and name and
// whose argument fragments are forwarded unchanged as input_json_delta.
//
// Anthropic streams allow one open block at a time, while Chat Completions
// may interleave fragments of parallel calls by index. Tool calls are
// therefore emitted in order of first appearance: the current call streams
// live, fragments of later calls are held back (bounded by
// Limits.MaxBufferedBytes), and the current call's block closes as soon as
// its arguments form a complete JSON object, at which point the next
// call's held fragments are written and it streams live in turn. Text or
// reasoning arriving after tool calls, and the end of the stream, flush
// every remaining call; a fragment for a call whose block was already
// closed is then an error. Sequential calls (what OpenAI and most servers
// send) are thus streamed without delay.
//
// The finish_reason is remembered and usage taken from whichever chunk
// carries it (usually a final chunk with no choices); message_delta
// (stop_reason, usage) and message_stop follow [DONE], or end of input
// after a finish_reason. An error chunk ({"error": {...}}, or an "error"
// SSE event), a malformed chunk, end of input before any finish_reason, a
// read error, ctx's end or an exceeded limit ends the stream with an
// Anthropic error event instead (rate_limit_error, overloaded_error,
// invalid_request_error, authentication_error or api_error).
package openai
