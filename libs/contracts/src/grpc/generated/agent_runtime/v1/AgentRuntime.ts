// Original file: libs/contracts/proto/agent_runtime.proto

import type { MethodDefinition } from '@grpc/proto-loader'
import type { ActivateReply as _agent_runtime_v1_ActivateReply, ActivateReply__Output as _agent_runtime_v1_ActivateReply__Output } from '../../agent_runtime/v1/ActivateReply';
import type { ActivateRequest as _agent_runtime_v1_ActivateRequest, ActivateRequest__Output as _agent_runtime_v1_ActivateRequest__Output } from '../../agent_runtime/v1/ActivateRequest';
import type { AgentEvent as _agent_runtime_v1_AgentEvent, AgentEvent__Output as _agent_runtime_v1_AgentEvent__Output } from '../../agent_runtime/v1/AgentEvent';
import type { AgentSummary as _agent_runtime_v1_AgentSummary, AgentSummary__Output as _agent_runtime_v1_AgentSummary__Output } from '../../agent_runtime/v1/AgentSummary';
import type { CallbackReply as _agent_runtime_v1_CallbackReply, CallbackReply__Output as _agent_runtime_v1_CallbackReply__Output } from '../../agent_runtime/v1/CallbackReply';
import type { CallbackRequest as _agent_runtime_v1_CallbackRequest, CallbackRequest__Output as _agent_runtime_v1_CallbackRequest__Output } from '../../agent_runtime/v1/CallbackRequest';
import type { CancelTimerReply as _agent_runtime_v1_CancelTimerReply, CancelTimerReply__Output as _agent_runtime_v1_CancelTimerReply__Output } from '../../agent_runtime/v1/CancelTimerReply';
import type { CancelTimerRequest as _agent_runtime_v1_CancelTimerRequest, CancelTimerRequest__Output as _agent_runtime_v1_CancelTimerRequest__Output } from '../../agent_runtime/v1/CancelTimerRequest';
import type { CancelWaitingIntentReply as _agent_runtime_v1_CancelWaitingIntentReply, CancelWaitingIntentReply__Output as _agent_runtime_v1_CancelWaitingIntentReply__Output } from '../../agent_runtime/v1/CancelWaitingIntentReply';
import type { CancelWaitingIntentRequest as _agent_runtime_v1_CancelWaitingIntentRequest, CancelWaitingIntentRequest__Output as _agent_runtime_v1_CancelWaitingIntentRequest__Output } from '../../agent_runtime/v1/CancelWaitingIntentRequest';
import type { Change as _agent_runtime_v1_Change, Change__Output as _agent_runtime_v1_Change__Output } from '../../agent_runtime/v1/Change';
import type { CloseRoundReply as _agent_runtime_v1_CloseRoundReply, CloseRoundReply__Output as _agent_runtime_v1_CloseRoundReply__Output } from '../../agent_runtime/v1/CloseRoundReply';
import type { CloseRoundRequest as _agent_runtime_v1_CloseRoundRequest, CloseRoundRequest__Output as _agent_runtime_v1_CloseRoundRequest__Output } from '../../agent_runtime/v1/CloseRoundRequest';
import type { CompleteWorkItemReply as _agent_runtime_v1_CompleteWorkItemReply, CompleteWorkItemReply__Output as _agent_runtime_v1_CompleteWorkItemReply__Output } from '../../agent_runtime/v1/CompleteWorkItemReply';
import type { CompleteWorkItemRequest as _agent_runtime_v1_CompleteWorkItemRequest, CompleteWorkItemRequest__Output as _agent_runtime_v1_CompleteWorkItemRequest__Output } from '../../agent_runtime/v1/CompleteWorkItemRequest';
import type { ContextProjection as _agent_runtime_v1_ContextProjection, ContextProjection__Output as _agent_runtime_v1_ContextProjection__Output } from '../../agent_runtime/v1/ContextProjection';
import type { ControlReply as _agent_runtime_v1_ControlReply, ControlReply__Output as _agent_runtime_v1_ControlReply__Output } from '../../agent_runtime/v1/ControlReply';
import type { ControlRequest as _agent_runtime_v1_ControlRequest, ControlRequest__Output as _agent_runtime_v1_ControlRequest__Output } from '../../agent_runtime/v1/ControlRequest';
import type { CreateTaskRequest as _agent_runtime_v1_CreateTaskRequest, CreateTaskRequest__Output as _agent_runtime_v1_CreateTaskRequest__Output } from '../../agent_runtime/v1/CreateTaskRequest';
import type { CreateTimerRequest as _agent_runtime_v1_CreateTimerRequest, CreateTimerRequest__Output as _agent_runtime_v1_CreateTimerRequest__Output } from '../../agent_runtime/v1/CreateTimerRequest';
import type { CreateWorkItemReply as _agent_runtime_v1_CreateWorkItemReply, CreateWorkItemReply__Output as _agent_runtime_v1_CreateWorkItemReply__Output } from '../../agent_runtime/v1/CreateWorkItemReply';
import type { CreateWorkItemRequest as _agent_runtime_v1_CreateWorkItemRequest, CreateWorkItemRequest__Output as _agent_runtime_v1_CreateWorkItemRequest__Output } from '../../agent_runtime/v1/CreateWorkItemRequest';
import type { DropMessageReply as _agent_runtime_v1_DropMessageReply, DropMessageReply__Output as _agent_runtime_v1_DropMessageReply__Output } from '../../agent_runtime/v1/DropMessageReply';
import type { DropMessageRequest as _agent_runtime_v1_DropMessageRequest, DropMessageRequest__Output as _agent_runtime_v1_DropMessageRequest__Output } from '../../agent_runtime/v1/DropMessageRequest';
import type { EnqueueMessageReply as _agent_runtime_v1_EnqueueMessageReply, EnqueueMessageReply__Output as _agent_runtime_v1_EnqueueMessageReply__Output } from '../../agent_runtime/v1/EnqueueMessageReply';
import type { EnqueueMessageRequest as _agent_runtime_v1_EnqueueMessageRequest, EnqueueMessageRequest__Output as _agent_runtime_v1_EnqueueMessageRequest__Output } from '../../agent_runtime/v1/EnqueueMessageRequest';
import type { GetAgentRequest as _agent_runtime_v1_GetAgentRequest, GetAgentRequest__Output as _agent_runtime_v1_GetAgentRequest__Output } from '../../agent_runtime/v1/GetAgentRequest';
import type { GetContextRequest as _agent_runtime_v1_GetContextRequest, GetContextRequest__Output as _agent_runtime_v1_GetContextRequest__Output } from '../../agent_runtime/v1/GetContextRequest';
import type { GetPlanReply as _agent_runtime_v1_GetPlanReply, GetPlanReply__Output as _agent_runtime_v1_GetPlanReply__Output } from '../../agent_runtime/v1/GetPlanReply';
import type { GetPlanRequest as _agent_runtime_v1_GetPlanRequest, GetPlanRequest__Output as _agent_runtime_v1_GetPlanRequest__Output } from '../../agent_runtime/v1/GetPlanRequest';
import type { GetStateRequest as _agent_runtime_v1_GetStateRequest, GetStateRequest__Output as _agent_runtime_v1_GetStateRequest__Output } from '../../agent_runtime/v1/GetStateRequest';
import type { GetWorkItemRequest as _agent_runtime_v1_GetWorkItemRequest, GetWorkItemRequest__Output as _agent_runtime_v1_GetWorkItemRequest__Output } from '../../agent_runtime/v1/GetWorkItemRequest';
import type { GetWorkItemWhyRequest as _agent_runtime_v1_GetWorkItemWhyRequest, GetWorkItemWhyRequest__Output as _agent_runtime_v1_GetWorkItemWhyRequest__Output } from '../../agent_runtime/v1/GetWorkItemWhyRequest';
import type { HeartbeatReply as _agent_runtime_v1_HeartbeatReply, HeartbeatReply__Output as _agent_runtime_v1_HeartbeatReply__Output } from '../../agent_runtime/v1/HeartbeatReply';
import type { HeartbeatRequest as _agent_runtime_v1_HeartbeatRequest, HeartbeatRequest__Output as _agent_runtime_v1_HeartbeatRequest__Output } from '../../agent_runtime/v1/HeartbeatRequest';
import type { ListBriefsReply as _agent_runtime_v1_ListBriefsReply, ListBriefsReply__Output as _agent_runtime_v1_ListBriefsReply__Output } from '../../agent_runtime/v1/ListBriefsReply';
import type { ListBriefsRequest as _agent_runtime_v1_ListBriefsRequest, ListBriefsRequest__Output as _agent_runtime_v1_ListBriefsRequest__Output } from '../../agent_runtime/v1/ListBriefsRequest';
import type { ListDecisionsReply as _agent_runtime_v1_ListDecisionsReply, ListDecisionsReply__Output as _agent_runtime_v1_ListDecisionsReply__Output } from '../../agent_runtime/v1/ListDecisionsReply';
import type { ListDecisionsRequest as _agent_runtime_v1_ListDecisionsRequest, ListDecisionsRequest__Output as _agent_runtime_v1_ListDecisionsRequest__Output } from '../../agent_runtime/v1/ListDecisionsRequest';
import type { ListDelegationsReply as _agent_runtime_v1_ListDelegationsReply, ListDelegationsReply__Output as _agent_runtime_v1_ListDelegationsReply__Output } from '../../agent_runtime/v1/ListDelegationsReply';
import type { ListDelegationsRequest as _agent_runtime_v1_ListDelegationsRequest, ListDelegationsRequest__Output as _agent_runtime_v1_ListDelegationsRequest__Output } from '../../agent_runtime/v1/ListDelegationsRequest';
import type { ListDeliverySummariesReply as _agent_runtime_v1_ListDeliverySummariesReply, ListDeliverySummariesReply__Output as _agent_runtime_v1_ListDeliverySummariesReply__Output } from '../../agent_runtime/v1/ListDeliverySummariesReply';
import type { ListDeliverySummariesRequest as _agent_runtime_v1_ListDeliverySummariesRequest, ListDeliverySummariesRequest__Output as _agent_runtime_v1_ListDeliverySummariesRequest__Output } from '../../agent_runtime/v1/ListDeliverySummariesRequest';
import type { ListMessagesReply as _agent_runtime_v1_ListMessagesReply, ListMessagesReply__Output as _agent_runtime_v1_ListMessagesReply__Output } from '../../agent_runtime/v1/ListMessagesReply';
import type { ListMessagesRequest as _agent_runtime_v1_ListMessagesRequest, ListMessagesRequest__Output as _agent_runtime_v1_ListMessagesRequest__Output } from '../../agent_runtime/v1/ListMessagesRequest';
import type { ListPlanVersionsReply as _agent_runtime_v1_ListPlanVersionsReply, ListPlanVersionsReply__Output as _agent_runtime_v1_ListPlanVersionsReply__Output } from '../../agent_runtime/v1/ListPlanVersionsReply';
import type { ListPlanVersionsRequest as _agent_runtime_v1_ListPlanVersionsRequest, ListPlanVersionsRequest__Output as _agent_runtime_v1_ListPlanVersionsRequest__Output } from '../../agent_runtime/v1/ListPlanVersionsRequest';
import type { ListTasksReply as _agent_runtime_v1_ListTasksReply, ListTasksReply__Output as _agent_runtime_v1_ListTasksReply__Output } from '../../agent_runtime/v1/ListTasksReply';
import type { ListTasksRequest as _agent_runtime_v1_ListTasksRequest, ListTasksRequest__Output as _agent_runtime_v1_ListTasksRequest__Output } from '../../agent_runtime/v1/ListTasksRequest';
import type { ListTimersReply as _agent_runtime_v1_ListTimersReply, ListTimersReply__Output as _agent_runtime_v1_ListTimersReply__Output } from '../../agent_runtime/v1/ListTimersReply';
import type { ListTimersRequest as _agent_runtime_v1_ListTimersRequest, ListTimersRequest__Output as _agent_runtime_v1_ListTimersRequest__Output } from '../../agent_runtime/v1/ListTimersRequest';
import type { ListWaitingIntentsReply as _agent_runtime_v1_ListWaitingIntentsReply, ListWaitingIntentsReply__Output as _agent_runtime_v1_ListWaitingIntentsReply__Output } from '../../agent_runtime/v1/ListWaitingIntentsReply';
import type { ListWaitingIntentsRequest as _agent_runtime_v1_ListWaitingIntentsRequest, ListWaitingIntentsRequest__Output as _agent_runtime_v1_ListWaitingIntentsRequest__Output } from '../../agent_runtime/v1/ListWaitingIntentsRequest';
import type { ListWorkItemsReply as _agent_runtime_v1_ListWorkItemsReply, ListWorkItemsReply__Output as _agent_runtime_v1_ListWorkItemsReply__Output } from '../../agent_runtime/v1/ListWorkItemsReply';
import type { ListWorkItemsRequest as _agent_runtime_v1_ListWorkItemsRequest, ListWorkItemsRequest__Output as _agent_runtime_v1_ListWorkItemsRequest__Output } from '../../agent_runtime/v1/ListWorkItemsRequest';
import type { PickWorkItemReply as _agent_runtime_v1_PickWorkItemReply, PickWorkItemReply__Output as _agent_runtime_v1_PickWorkItemReply__Output } from '../../agent_runtime/v1/PickWorkItemReply';
import type { PickWorkItemRequest as _agent_runtime_v1_PickWorkItemRequest, PickWorkItemRequest__Output as _agent_runtime_v1_PickWorkItemRequest__Output } from '../../agent_runtime/v1/PickWorkItemRequest';
import type { ReadEventsReply as _agent_runtime_v1_ReadEventsReply, ReadEventsReply__Output as _agent_runtime_v1_ReadEventsReply__Output } from '../../agent_runtime/v1/ReadEventsReply';
import type { ReadEventsRequest as _agent_runtime_v1_ReadEventsRequest, ReadEventsRequest__Output as _agent_runtime_v1_ReadEventsRequest__Output } from '../../agent_runtime/v1/ReadEventsRequest';
import type { RecordRoundReply as _agent_runtime_v1_RecordRoundReply, RecordRoundReply__Output as _agent_runtime_v1_RecordRoundReply__Output } from '../../agent_runtime/v1/RecordRoundReply';
import type { RecordRoundRequest as _agent_runtime_v1_RecordRoundRequest, RecordRoundRequest__Output as _agent_runtime_v1_RecordRoundRequest__Output } from '../../agent_runtime/v1/RecordRoundRequest';
import type { RegisterAgentReply as _agent_runtime_v1_RegisterAgentReply, RegisterAgentReply__Output as _agent_runtime_v1_RegisterAgentReply__Output } from '../../agent_runtime/v1/RegisterAgentReply';
import type { RegisterAgentRequest as _agent_runtime_v1_RegisterAgentRequest, RegisterAgentRequest__Output as _agent_runtime_v1_RegisterAgentRequest__Output } from '../../agent_runtime/v1/RegisterAgentRequest';
import type { ReplacePlanReply as _agent_runtime_v1_ReplacePlanReply, ReplacePlanReply__Output as _agent_runtime_v1_ReplacePlanReply__Output } from '../../agent_runtime/v1/ReplacePlanReply';
import type { ReplacePlanRequest as _agent_runtime_v1_ReplacePlanRequest, ReplacePlanRequest__Output as _agent_runtime_v1_ReplacePlanRequest__Output } from '../../agent_runtime/v1/ReplacePlanRequest';
import type { SchedulerState as _agent_runtime_v1_SchedulerState, SchedulerState__Output as _agent_runtime_v1_SchedulerState__Output } from '../../agent_runtime/v1/SchedulerState';
import type { SpawnAgentReply as _agent_runtime_v1_SpawnAgentReply, SpawnAgentReply__Output as _agent_runtime_v1_SpawnAgentReply__Output } from '../../agent_runtime/v1/SpawnAgentReply';
import type { SpawnAgentRequest as _agent_runtime_v1_SpawnAgentRequest, SpawnAgentRequest__Output as _agent_runtime_v1_SpawnAgentRequest__Output } from '../../agent_runtime/v1/SpawnAgentRequest';
import type { SubmitWakeHintReply as _agent_runtime_v1_SubmitWakeHintReply, SubmitWakeHintReply__Output as _agent_runtime_v1_SubmitWakeHintReply__Output } from '../../agent_runtime/v1/SubmitWakeHintReply';
import type { SubmitWakeHintRequest as _agent_runtime_v1_SubmitWakeHintRequest, SubmitWakeHintRequest__Output as _agent_runtime_v1_SubmitWakeHintRequest__Output } from '../../agent_runtime/v1/SubmitWakeHintRequest';
import type { TaskHeartbeatRequest as _agent_runtime_v1_TaskHeartbeatRequest, TaskHeartbeatRequest__Output as _agent_runtime_v1_TaskHeartbeatRequest__Output } from '../../agent_runtime/v1/TaskHeartbeatRequest';
import type { TaskReply as _agent_runtime_v1_TaskReply, TaskReply__Output as _agent_runtime_v1_TaskReply__Output } from '../../agent_runtime/v1/TaskReply';
import type { TimerReply as _agent_runtime_v1_TimerReply, TimerReply__Output as _agent_runtime_v1_TimerReply__Output } from '../../agent_runtime/v1/TimerReply';
import type { TriggerWaitingIntentReply as _agent_runtime_v1_TriggerWaitingIntentReply, TriggerWaitingIntentReply__Output as _agent_runtime_v1_TriggerWaitingIntentReply__Output } from '../../agent_runtime/v1/TriggerWaitingIntentReply';
import type { TriggerWaitingIntentRequest as _agent_runtime_v1_TriggerWaitingIntentRequest, TriggerWaitingIntentRequest__Output as _agent_runtime_v1_TriggerWaitingIntentRequest__Output } from '../../agent_runtime/v1/TriggerWaitingIntentRequest';
import type { TurnTerminalReply as _agent_runtime_v1_TurnTerminalReply, TurnTerminalReply__Output as _agent_runtime_v1_TurnTerminalReply__Output } from '../../agent_runtime/v1/TurnTerminalReply';
import type { TurnTerminalRequest as _agent_runtime_v1_TurnTerminalRequest, TurnTerminalRequest__Output as _agent_runtime_v1_TurnTerminalRequest__Output } from '../../agent_runtime/v1/TurnTerminalRequest';
import type { UpdateTaskStatusRequest as _agent_runtime_v1_UpdateTaskStatusRequest, UpdateTaskStatusRequest__Output as _agent_runtime_v1_UpdateTaskStatusRequest__Output } from '../../agent_runtime/v1/UpdateTaskStatusRequest';
import type { UpdateWorkItemReply as _agent_runtime_v1_UpdateWorkItemReply, UpdateWorkItemReply__Output as _agent_runtime_v1_UpdateWorkItemReply__Output } from '../../agent_runtime/v1/UpdateWorkItemReply';
import type { UpdateWorkItemRequest as _agent_runtime_v1_UpdateWorkItemRequest, UpdateWorkItemRequest__Output as _agent_runtime_v1_UpdateWorkItemRequest__Output } from '../../agent_runtime/v1/UpdateWorkItemRequest';
import type { WaitForReply as _agent_runtime_v1_WaitForReply, WaitForReply__Output as _agent_runtime_v1_WaitForReply__Output } from '../../agent_runtime/v1/WaitForReply';
import type { WaitForRequest as _agent_runtime_v1_WaitForRequest, WaitForRequest__Output as _agent_runtime_v1_WaitForRequest__Output } from '../../agent_runtime/v1/WaitForRequest';
import type { WatchChangesRequest as _agent_runtime_v1_WatchChangesRequest, WatchChangesRequest__Output as _agent_runtime_v1_WatchChangesRequest__Output } from '../../agent_runtime/v1/WatchChangesRequest';
import type { WatchEventsRequest as _agent_runtime_v1_WatchEventsRequest, WatchEventsRequest__Output as _agent_runtime_v1_WatchEventsRequest__Output } from '../../agent_runtime/v1/WatchEventsRequest';
import type { WorkItemView as _agent_runtime_v1_WorkItemView, WorkItemView__Output as _agent_runtime_v1_WorkItemView__Output } from '../../agent_runtime/v1/WorkItemView';
import type { WorkItemWhy as _agent_runtime_v1_WorkItemWhy, WorkItemWhy__Output as _agent_runtime_v1_WorkItemWhy__Output } from '../../agent_runtime/v1/WorkItemWhy';

export interface AgentRuntimeDefinition {
  Activate: MethodDefinition<_agent_runtime_v1_ActivateRequest, _agent_runtime_v1_ActivateReply, _agent_runtime_v1_ActivateRequest__Output, _agent_runtime_v1_ActivateReply__Output>
  Callback: MethodDefinition<_agent_runtime_v1_CallbackRequest, _agent_runtime_v1_CallbackReply, _agent_runtime_v1_CallbackRequest__Output, _agent_runtime_v1_CallbackReply__Output>
  CancelTimer: MethodDefinition<_agent_runtime_v1_CancelTimerRequest, _agent_runtime_v1_CancelTimerReply, _agent_runtime_v1_CancelTimerRequest__Output, _agent_runtime_v1_CancelTimerReply__Output>
  CancelWaitingIntent: MethodDefinition<_agent_runtime_v1_CancelWaitingIntentRequest, _agent_runtime_v1_CancelWaitingIntentReply, _agent_runtime_v1_CancelWaitingIntentRequest__Output, _agent_runtime_v1_CancelWaitingIntentReply__Output>
  CloseRound: MethodDefinition<_agent_runtime_v1_CloseRoundRequest, _agent_runtime_v1_CloseRoundReply, _agent_runtime_v1_CloseRoundRequest__Output, _agent_runtime_v1_CloseRoundReply__Output>
  CompleteWorkItem: MethodDefinition<_agent_runtime_v1_CompleteWorkItemRequest, _agent_runtime_v1_CompleteWorkItemReply, _agent_runtime_v1_CompleteWorkItemRequest__Output, _agent_runtime_v1_CompleteWorkItemReply__Output>
  Control: MethodDefinition<_agent_runtime_v1_ControlRequest, _agent_runtime_v1_ControlReply, _agent_runtime_v1_ControlRequest__Output, _agent_runtime_v1_ControlReply__Output>
  CreateTask: MethodDefinition<_agent_runtime_v1_CreateTaskRequest, _agent_runtime_v1_TaskReply, _agent_runtime_v1_CreateTaskRequest__Output, _agent_runtime_v1_TaskReply__Output>
  CreateTimer: MethodDefinition<_agent_runtime_v1_CreateTimerRequest, _agent_runtime_v1_TimerReply, _agent_runtime_v1_CreateTimerRequest__Output, _agent_runtime_v1_TimerReply__Output>
  CreateWorkItem: MethodDefinition<_agent_runtime_v1_CreateWorkItemRequest, _agent_runtime_v1_CreateWorkItemReply, _agent_runtime_v1_CreateWorkItemRequest__Output, _agent_runtime_v1_CreateWorkItemReply__Output>
  DropMessage: MethodDefinition<_agent_runtime_v1_DropMessageRequest, _agent_runtime_v1_DropMessageReply, _agent_runtime_v1_DropMessageRequest__Output, _agent_runtime_v1_DropMessageReply__Output>
  EnqueueMessage: MethodDefinition<_agent_runtime_v1_EnqueueMessageRequest, _agent_runtime_v1_EnqueueMessageReply, _agent_runtime_v1_EnqueueMessageRequest__Output, _agent_runtime_v1_EnqueueMessageReply__Output>
  GetAgent: MethodDefinition<_agent_runtime_v1_GetAgentRequest, _agent_runtime_v1_AgentSummary, _agent_runtime_v1_GetAgentRequest__Output, _agent_runtime_v1_AgentSummary__Output>
  GetContext: MethodDefinition<_agent_runtime_v1_GetContextRequest, _agent_runtime_v1_ContextProjection, _agent_runtime_v1_GetContextRequest__Output, _agent_runtime_v1_ContextProjection__Output>
  GetPlan: MethodDefinition<_agent_runtime_v1_GetPlanRequest, _agent_runtime_v1_GetPlanReply, _agent_runtime_v1_GetPlanRequest__Output, _agent_runtime_v1_GetPlanReply__Output>
  GetState: MethodDefinition<_agent_runtime_v1_GetStateRequest, _agent_runtime_v1_SchedulerState, _agent_runtime_v1_GetStateRequest__Output, _agent_runtime_v1_SchedulerState__Output>
  GetWorkItem: MethodDefinition<_agent_runtime_v1_GetWorkItemRequest, _agent_runtime_v1_WorkItemView, _agent_runtime_v1_GetWorkItemRequest__Output, _agent_runtime_v1_WorkItemView__Output>
  GetWorkItemWhy: MethodDefinition<_agent_runtime_v1_GetWorkItemWhyRequest, _agent_runtime_v1_WorkItemWhy, _agent_runtime_v1_GetWorkItemWhyRequest__Output, _agent_runtime_v1_WorkItemWhy__Output>
  Heartbeat: MethodDefinition<_agent_runtime_v1_HeartbeatRequest, _agent_runtime_v1_HeartbeatReply, _agent_runtime_v1_HeartbeatRequest__Output, _agent_runtime_v1_HeartbeatReply__Output>
  ListBriefs: MethodDefinition<_agent_runtime_v1_ListBriefsRequest, _agent_runtime_v1_ListBriefsReply, _agent_runtime_v1_ListBriefsRequest__Output, _agent_runtime_v1_ListBriefsReply__Output>
  ListDecisions: MethodDefinition<_agent_runtime_v1_ListDecisionsRequest, _agent_runtime_v1_ListDecisionsReply, _agent_runtime_v1_ListDecisionsRequest__Output, _agent_runtime_v1_ListDecisionsReply__Output>
  ListDelegations: MethodDefinition<_agent_runtime_v1_ListDelegationsRequest, _agent_runtime_v1_ListDelegationsReply, _agent_runtime_v1_ListDelegationsRequest__Output, _agent_runtime_v1_ListDelegationsReply__Output>
  ListDeliverySummaries: MethodDefinition<_agent_runtime_v1_ListDeliverySummariesRequest, _agent_runtime_v1_ListDeliverySummariesReply, _agent_runtime_v1_ListDeliverySummariesRequest__Output, _agent_runtime_v1_ListDeliverySummariesReply__Output>
  ListMessages: MethodDefinition<_agent_runtime_v1_ListMessagesRequest, _agent_runtime_v1_ListMessagesReply, _agent_runtime_v1_ListMessagesRequest__Output, _agent_runtime_v1_ListMessagesReply__Output>
  ListPlanVersions: MethodDefinition<_agent_runtime_v1_ListPlanVersionsRequest, _agent_runtime_v1_ListPlanVersionsReply, _agent_runtime_v1_ListPlanVersionsRequest__Output, _agent_runtime_v1_ListPlanVersionsReply__Output>
  ListTasks: MethodDefinition<_agent_runtime_v1_ListTasksRequest, _agent_runtime_v1_ListTasksReply, _agent_runtime_v1_ListTasksRequest__Output, _agent_runtime_v1_ListTasksReply__Output>
  ListTimers: MethodDefinition<_agent_runtime_v1_ListTimersRequest, _agent_runtime_v1_ListTimersReply, _agent_runtime_v1_ListTimersRequest__Output, _agent_runtime_v1_ListTimersReply__Output>
  ListWaitingIntents: MethodDefinition<_agent_runtime_v1_ListWaitingIntentsRequest, _agent_runtime_v1_ListWaitingIntentsReply, _agent_runtime_v1_ListWaitingIntentsRequest__Output, _agent_runtime_v1_ListWaitingIntentsReply__Output>
  ListWorkItems: MethodDefinition<_agent_runtime_v1_ListWorkItemsRequest, _agent_runtime_v1_ListWorkItemsReply, _agent_runtime_v1_ListWorkItemsRequest__Output, _agent_runtime_v1_ListWorkItemsReply__Output>
  PickWorkItem: MethodDefinition<_agent_runtime_v1_PickWorkItemRequest, _agent_runtime_v1_PickWorkItemReply, _agent_runtime_v1_PickWorkItemRequest__Output, _agent_runtime_v1_PickWorkItemReply__Output>
  ReadEvents: MethodDefinition<_agent_runtime_v1_ReadEventsRequest, _agent_runtime_v1_ReadEventsReply, _agent_runtime_v1_ReadEventsRequest__Output, _agent_runtime_v1_ReadEventsReply__Output>
  RecordRound: MethodDefinition<_agent_runtime_v1_RecordRoundRequest, _agent_runtime_v1_RecordRoundReply, _agent_runtime_v1_RecordRoundRequest__Output, _agent_runtime_v1_RecordRoundReply__Output>
  RegisterAgent: MethodDefinition<_agent_runtime_v1_RegisterAgentRequest, _agent_runtime_v1_RegisterAgentReply, _agent_runtime_v1_RegisterAgentRequest__Output, _agent_runtime_v1_RegisterAgentReply__Output>
  ReplacePlan: MethodDefinition<_agent_runtime_v1_ReplacePlanRequest, _agent_runtime_v1_ReplacePlanReply, _agent_runtime_v1_ReplacePlanRequest__Output, _agent_runtime_v1_ReplacePlanReply__Output>
  SpawnAgent: MethodDefinition<_agent_runtime_v1_SpawnAgentRequest, _agent_runtime_v1_SpawnAgentReply, _agent_runtime_v1_SpawnAgentRequest__Output, _agent_runtime_v1_SpawnAgentReply__Output>
  SubmitWakeHint: MethodDefinition<_agent_runtime_v1_SubmitWakeHintRequest, _agent_runtime_v1_SubmitWakeHintReply, _agent_runtime_v1_SubmitWakeHintRequest__Output, _agent_runtime_v1_SubmitWakeHintReply__Output>
  TaskHeartbeat: MethodDefinition<_agent_runtime_v1_TaskHeartbeatRequest, _agent_runtime_v1_TaskReply, _agent_runtime_v1_TaskHeartbeatRequest__Output, _agent_runtime_v1_TaskReply__Output>
  TriggerWaitingIntent: MethodDefinition<_agent_runtime_v1_TriggerWaitingIntentRequest, _agent_runtime_v1_TriggerWaitingIntentReply, _agent_runtime_v1_TriggerWaitingIntentRequest__Output, _agent_runtime_v1_TriggerWaitingIntentReply__Output>
  TurnTerminal: MethodDefinition<_agent_runtime_v1_TurnTerminalRequest, _agent_runtime_v1_TurnTerminalReply, _agent_runtime_v1_TurnTerminalRequest__Output, _agent_runtime_v1_TurnTerminalReply__Output>
  UpdateTaskStatus: MethodDefinition<_agent_runtime_v1_UpdateTaskStatusRequest, _agent_runtime_v1_TaskReply, _agent_runtime_v1_UpdateTaskStatusRequest__Output, _agent_runtime_v1_TaskReply__Output>
  UpdateWorkItem: MethodDefinition<_agent_runtime_v1_UpdateWorkItemRequest, _agent_runtime_v1_UpdateWorkItemReply, _agent_runtime_v1_UpdateWorkItemRequest__Output, _agent_runtime_v1_UpdateWorkItemReply__Output>
  WaitFor: MethodDefinition<_agent_runtime_v1_WaitForRequest, _agent_runtime_v1_WaitForReply, _agent_runtime_v1_WaitForRequest__Output, _agent_runtime_v1_WaitForReply__Output>
  WatchChanges: MethodDefinition<_agent_runtime_v1_WatchChangesRequest, _agent_runtime_v1_Change, _agent_runtime_v1_WatchChangesRequest__Output, _agent_runtime_v1_Change__Output>
  WatchEvents: MethodDefinition<_agent_runtime_v1_WatchEventsRequest, _agent_runtime_v1_AgentEvent, _agent_runtime_v1_WatchEventsRequest__Output, _agent_runtime_v1_AgentEvent__Output>
}
