/* placeholder: replaced by the owner of this file */
