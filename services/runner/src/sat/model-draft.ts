/** The stored form of a SAT model, made where the model is read (this thread or an isolated kernel). */
import type { ArtifactDraft } from '@jacobian/shared';
import { SAT_MODEL_SCHEMA_URI, SAT_MODEL_SEMANTICS_URI } from './sat-domain.js';

/** The artifact draft of a rechecked model (one literal per variable) of the CNF stored as `cnfUri`. */
export function modelDraft(variables: number, model: number[], cnfUri: string): ArtifactDraft {
  return {
    schema_uri: SAT_MODEL_SCHEMA_URI,
    semantics_uri: SAT_MODEL_SEMANTICS_URI,
    payload: { variables, assignment: model },
    parents: [cnfUri],
    summary: { variables, true_variables: model.filter((literal) => literal > 0).length },
  };
}
