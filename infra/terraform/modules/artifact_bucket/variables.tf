variable "bucket_name" {
  type        = string
  description = "Name of the artifact bucket (globally unique). Jacobian reads it from S3_BUCKET."

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.bucket_name))
    error_message = "bucket_name must be 3-63 characters of a-z, 0-9, '.' and '-', starting and ending with a letter or digit."
  }
}

variable "prefix" {
  type        = string
  description = "Key prefix Jacobian stores artifacts under (S3_PREFIX); empty for the bucket root. A trailing '/' is added when missing, as Jacobian does."
  default     = ""

  validation {
    condition     = !startswith(var.prefix, "/")
    error_message = "prefix must not start with '/'."
  }
}

variable "record_writer_role_arns" {
  type        = list(string)
  description = "IAM role ARNs allowed to write verification records (<prefix>records/ and <prefix>tenants/*/records/). The bucket policy denies s3:PutObject there to every other principal. In Jacobian this is the checker role alone."

  validation {
    condition     = length(var.record_writer_role_arns) > 0 && alltrue([for arn in var.record_writer_role_arns : can(regex("^arn:aws[a-z-]*:iam::[0-9]{12}:role/", arn))])
    error_message = "record_writer_role_arns must hold at least one IAM role ARN."
  }
}

variable "temporary_prefixes" {
  type        = list(string)
  description = "Bucket-relative key prefixes whose objects are temporary and expire after temporary_object_expiration_days."
  default     = ["tmp/"]

  validation {
    condition     = alltrue([for p in var.temporary_prefixes : p != "" && !startswith(p, "/")])
    error_message = "Each temporary prefix must be non-empty and must not start with '/' (an empty prefix would expire the whole bucket)."
  }
}

variable "temporary_object_expiration_days" {
  type        = number
  description = "Days after which objects under temporary_prefixes expire."
  default     = 7

  validation {
    condition     = var.temporary_object_expiration_days >= 1 && floor(var.temporary_object_expiration_days) == var.temporary_object_expiration_days
    error_message = "temporary_object_expiration_days must be a whole number of at least 1."
  }
}

variable "noncurrent_version_expiration_days" {
  type        = number
  description = "Days after which noncurrent object versions (overwritten or deleted objects) are removed."
  default     = 30

  validation {
    condition     = var.noncurrent_version_expiration_days >= 1 && floor(var.noncurrent_version_expiration_days) == var.noncurrent_version_expiration_days
    error_message = "noncurrent_version_expiration_days must be a whole number of at least 1."
  }
}

variable "abort_incomplete_multipart_upload_days" {
  type        = number
  description = "Days after which incomplete multipart uploads are aborted and their parts deleted."
  default     = 7

  validation {
    condition     = var.abort_incomplete_multipart_upload_days >= 1 && floor(var.abort_incomplete_multipart_upload_days) == var.abort_incomplete_multipart_upload_days
    error_message = "abort_incomplete_multipart_upload_days must be a whole number of at least 1."
  }
}

variable "kms_key_deletion_window_days" {
  type        = number
  description = "Waiting period (7-30 days) before the bucket's KMS key is deleted once scheduled for deletion."
  default     = 30

  validation {
    condition     = var.kms_key_deletion_window_days >= 7 && var.kms_key_deletion_window_days <= 30
    error_message = "kms_key_deletion_window_days must be between 7 and 30."
  }
}

variable "force_destroy" {
  type        = bool
  description = "Allow terraform destroy to delete the bucket while it still holds objects. Keep false outside throwaway environments."
  default     = false
}
