/** The model side of a host: the ModelAdapter interface and its two implementations. */
export * from './model-adapter';
export * from './errors';
export { call, ScriptedModel } from './scripted-model';
export type {
  Script,
  ScriptedModelOptions,
  ScriptedRespond,
  ScriptedRound,
  ScriptedStep,
  ScriptedStepInput,
  ScriptedToolCall,
  ScriptedToolResult,
} from './scripted-model';
export { OpenAiChatModel } from './openai-chat-model';
export type { OpenAiChatModelOptions } from './openai-chat-model';
export { parseChatResponse, toChatRequest } from './openai-chat-wire';
