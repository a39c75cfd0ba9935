import * as z from 'zod';
import { DashboardCascadeResult, DashboardCopy, DashboardCreate, DashboardDocument, DashboardUpdate } from '../../../schemas/resources/dashboard';
import { EmailTemplateCreate, EmailTemplateDocument, EmailTemplateUpdate } from '../../../schemas/resources/email-template';
import {
  EncryptedKeyCreateBody,
  EncryptedKeyDocument,
  EncryptedKeyListQuery,
  EncryptedKeySummary,
  EncryptedKeyUpdate,
} from '../../../schemas/resources/keystore';
import { AclGrant, AclRevoke } from '../../../schemas/resources/policy';
import { CommentCreate, CommentDocument, CommentUpdate, WorkspaceCreate, WorkspaceDocument, WorkspaceUpdate } from '../../../schemas/resources/workspace';
import { crud, named, NEXT_PAGE, ListQuery, type RouteSchema } from './route-schema';

/** Dashboards, workspaces, email templates and the keystore. */
// ── Management: dashboards, workspaces, email templates, keystore (helper B2) ──

export const DashboardSchema = named('Dashboard', DashboardDocument);
export const EncryptedKeySchema = named('EncryptedKey', EncryptedKeyDocument);
export const WorkspaceSchema = named('Workspace', WorkspaceDocument);
export const CommentSchema = named('Comment', CommentDocument);

export const aclEntries = (name: string, noun: string, idParam: string, document: z.ZodType): Record<string, RouteSchema> => ({
  [`${name}.aclAdd`]: {
    description: `Grants a permission on a ${noun} (adds or replaces the grantee's ACL entry).`,
    params: { [idParam]: `The ${noun}'s id.` },
    body: AclGrant,
    responseStatus: 200,
    response: document,
    errors: [404, 410, 503],
  },
  [`${name}.aclRemove`]: {
    description: `Removes a grantee from a ${noun}'s ACL (the grantee comes in the body or as the grantee query parameter).`,
    params: { [idParam]: `The ${noun}'s id.` },
    query: z.object({ grantee: z.string().optional().meta({ description: 'The grantee to remove, when the body does not name it.' }) }),
    body: AclRevoke,
    bodyOptional: true,
    responseStatus: 200,
    response: document,
    errors: [404, 410, 503],
  },
});

export const boardSchemas: Record<string, RouteSchema> = {
  ...crud('dashboards', {
    noun: 'dashboard',
    plural: 'dashboards',
    idParam: 'dashId',
    create: named('DashboardCreate', DashboardCreate),
    update: named('DashboardUpdate', DashboardUpdate),
    document: DashboardSchema,
  }),
  'dashboards.copy': {
    description: 'Copies a dashboard with its child dashboards and workspaces; answers the new root dashboard.',
    params: { dashId: "The dashboard's id." },
    body: DashboardCopy,
    bodyOptional: true,
    responseStatus: 201,
    response: DashboardSchema,
    errors: [404, 410],
  },
  'dashboards.cascadeDelete': {
    description: 'Deletes a dashboard with its child dashboards and their workspaces.',
    params: { dashId: "The dashboard's id." },
    responseStatus: 200,
    response: DashboardCascadeResult,
    errors: [404, 410],
  },
  ...aclEntries('dashboards', 'dashboard', 'dashId', DashboardSchema),
  ...crud('workspaces', {
    noun: 'workspace',
    plural: 'workspaces',
    idParam: 'id',
    create: named('WorkspaceCreate', WorkspaceCreate),
    update: named('WorkspaceUpdate', WorkspaceUpdate),
    document: WorkspaceSchema,
    filters: z.object({ type: z.string().optional().meta({ description: 'Only workspaces of this type.' }) }),
  }),
  'workspaces.templates': {
    description: 'The template workspaces of the app.',
    query: ListQuery,
    responseStatus: 200,
    response: z.array(WorkspaceSchema),
    responseHeaders: NEXT_PAGE,
  },
  'workspaces.comments.create': {
    description: 'Comments on a workspace as the caller.',
    params: { id: "The workspace's id." },
    body: CommentCreate,
    responseStatus: 201,
    response: CommentSchema,
    errors: [404, 410],
  },
  'workspaces.comments.list': {
    description: "A workspace's comments, newest first.",
    params: { id: "The workspace's id." },
    query: ListQuery,
    responseStatus: 200,
    response: z.array(CommentSchema),
    responseHeaders: NEXT_PAGE,
    errors: [404, 410],
  },
  'workspaces.comments.update': {
    description: "Edits one of the caller's own comments.",
    params: { id: "The workspace's id.", commentId: "The comment's id." },
    body: CommentUpdate,
    responseStatus: 200,
    response: CommentSchema,
    errors: [404, 410],
  },
  'workspaces.comments.delete': {
    description: "Deletes one of the caller's own comments.",
    params: { id: "The workspace's id.", commentId: "The comment's id." },
    responseStatus: 204,
    errors: [404, 410],
  },
  ...aclEntries('workspaces', 'workspace', 'id', WorkspaceSchema),
  ...crud('emailTemplates', {
    noun: 'email template',
    plural: 'email templates',
    idParam: 'id',
    create: named('EmailTemplateCreate', EmailTemplateCreate),
    update: named('EmailTemplateUpdate', EmailTemplateUpdate),
    document: named('EmailTemplate', EmailTemplateDocument),
    filters: z.object({ cohort_id: z.string().optional().meta({ description: 'Only templates sent to this cohort.' }) }),
  }),
  ...crud('keystore', {
    noun: 'encrypted key',
    createConflicts: true,
    plural: 'encrypted keys (without their key material)',
    idParam: 'keyId',
    create: EncryptedKeyCreateBody,
    update: named('EncryptedKeyUpdate', EncryptedKeyUpdate),
    document: EncryptedKeySchema,
    filters: EncryptedKeyListQuery,
  }),
};
// The keystore differs from the generic kinds: several keys at once, and lists without the material.
const EncryptedKeySummarySchema = named('EncryptedKeySummary', EncryptedKeySummary);
boardSchemas['keystore.create'] = {
  ...boardSchemas['keystore.create']!,
  description:
    'Stores one wrapped key (an object) or up to 100 (an array); answers the stored key, or an array of them, without the key material (GET one key to read it).',
  response: z.union([EncryptedKeySummarySchema, z.array(EncryptedKeySummarySchema)]),
};
boardSchemas['keystore.update'] = {
  ...boardSchemas['keystore.update']!,
  response: EncryptedKeySummarySchema,
};
boardSchemas['keystore.list'] = {
  ...boardSchemas['keystore.list']!,
  description: 'Encrypted keys whose month lies in [from, to] (months YYYY-MM or date-times), of one type; without their key material.',
  response: z.array(EncryptedKeySummarySchema),
};
